import Foundation
import Testing

@testable import Training

/// `TZ` read as the C library reads it. The expected offsets are POSIX's (hours west of UTC are positive in `TZ`, so
/// `JST-9` is nine hours east), checked by hand against `TZ=JST-9 date +%z` (+0900) and `TZ=UTC-3 date +%z` (+0300).
struct SystemTimeZoneTests {
    @Test(arguments: [
        ("Asia/Tokyo", "Asia/Tokyo"), (":Asia/Tokyo", "Asia/Tokyo"),
        (":/usr/share/zoneinfo/Asia/Tokyo", "Asia/Tokyo"), ("/usr/share/zoneinfo/posix/Europe/Berlin", "Europe/Berlin"),
    ])
    func aZoneNamedOrItsFileIsRead(setting: String, zone: String) {
        #expect(SystemTimeZone.zone(named: setting)?.identifier == zone)
    }

    @Test(arguments: [
        ("JST-9", 9 * 3_600), ("UTC-3", 3 * 3_600), ("EST5", -5 * 3_600), ("<+0530>-5", 5 * 3_600), ("UTC0", 0),
    ])
    func aPOSIXOffsetIsHoursWestOfUTC(setting: String, secondsEast: Int) {
        #expect(SystemTimeZone.zone(named: setting)?.secondsFromGMT() == secondsEast)
    }

    /// Summer-time rules, a zone this machine does not have, an offset past any zone's, and Foundation's own offset
    /// names (east-positive, the other way round from `TZ`): not read, and said so.
    @Test(arguments: ["EST5EDT,M3.2.0,M11.1.0", "Foo/Bar", "XYZ-15", "GMT+0530", "/tmp/zoneinfo-nowhere"])
    func otherSettingsAreNotRead(setting: String) {
        #expect(SystemTimeZone.zone(named: setting) == nil)
        #expect(SystemTimeZone.read(setting).notRead == setting)
        #expect(SystemTimeZone.read(setting).zone == TimeZone.current)
    }

    @Test func noSettingIsTheSystemsZone() {
        #expect(SystemTimeZone.read(nil).notRead == nil && SystemTimeZone.read("").notRead == nil)
    }
}
