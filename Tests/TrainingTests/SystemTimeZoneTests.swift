import Foundation
import Testing

@testable import Training

/// `TZ` read as the C library reads it. The expected offsets are POSIX's (hours west of UTC are positive in `TZ`, so
/// `JST-9` is nine hours east), checked by hand against `date +%z` under each (`TZ=JST-9` gives +0900, `TZ=UTC-3`
/// +0300, `TZ=IST-5:30` +0530, `TZ=UTC+13` -1300, `TZ=JST` +0000); the CLI's days are checked against `date` too
/// (`WorkoutCLITests`).
struct SystemTimeZoneTests {
    @Test(arguments: [
        ("Asia/Tokyo", "Asia/Tokyo"), (":Asia/Tokyo", "Asia/Tokyo"), ("right/Asia/Tokyo", "Asia/Tokyo"),
        ("Asia/../Asia/Tokyo", "Asia/Tokyo"), (":/usr/share/zoneinfo/Asia/Tokyo", "Asia/Tokyo"),
        ("/usr/share/zoneinfo/posix/Europe/Berlin", "Europe/Berlin"),
    ])
    func aZoneFileNamedOrGivenByItsPathIsRead(setting: String, zone: String) {
        #expect(SystemTimeZone.zone(named: setting)?.identifier == zone)
    }

    @Test(arguments: [
        ("JST-9", 9 * 3_600), ("UTC-3", 3 * 3_600), ("EST5", -5 * 3_600), ("<+0530>-5", 5 * 3_600), ("UTC0", 0),
        ("IST-5:30", 19_800), ("<+0545>-05:45", 20_700), ("UTC+13", -13 * 3_600), ("GMT+5:30", -19_800),
    ])
    func aPOSIXOffsetIsTimeWestOfUTC(setting: String, secondsEast: Int) {
        #expect(SystemTimeZone.zone(named: setting)?.secondsFromGMT() == secondsEast)
    }

    /// Summer-time rules, abbreviations no zone file has (Foundation reads `JST` as Tokyo, `date` as UTC), a zone
    /// this machine does not have, an offset past any zone's, a file outside the zone files: not read, and said so;
    /// /etc/localtime's zone is in force, not Foundation's reading of `TZ`.
    @Test(arguments: [
        "EST5EDT,M3.2.0,M11.1.0", "JST", "CEST", "Foo/Bar", "XYZ-15", "GMT+0530", "/tmp/zoneinfo-nowhere",
        "../../../etc/passwd",
    ])
    func otherSettingsAreNotRead(setting: String) {
        #expect(SystemTimeZone.zone(named: setting) == nil)
        #expect(SystemTimeZone.read(setting).notRead == setting)
        #expect(SystemTimeZone.read(setting).zone == SystemTimeZone.localtime)
    }

    /// /etc/localtime is a link into the zone files on Debian: its zone is the one the link names.
    @Test(.enabled(if: localtimeIsALink, "/etc/localtime is no link into the zone files here; skipped"))
    func theLocalZoneIsTheOneEtcLocaltimeNames() throws {
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")
        let name = try #require(target.range(of: "zoneinfo/")).upperBound
        #expect(SystemTimeZone.localtime.identifier == String(target[name...]))
    }

    @Test func noSettingIsTheSystemsZone() {
        #expect(SystemTimeZone.read(nil).notRead == nil && SystemTimeZone.read("").notRead == nil)
    }
}

private let localtimeIsALink =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"))?.contains("zoneinfo/") == true
