import Foundation
import Testing

@testable import Training

/// `TZ` read as the C library reads it. The expected offsets are POSIX's (hours west of UTC are positive in `TZ`, so
/// `JST-9` is nine hours east), checked by hand against `date +%z` under each (`TZ=JST-9` gives +0900, `TZ=UTC-3`
/// +0300, `TZ=IST-5:30` +0530, `TZ=UTC+13` -1300, `TZ=JST` +0000, `TZ=EST5:99` -0559, `TZ=XYZ-5:75` +0559); the CLI's
/// days are checked against `date` too (`WorkoutCLITests`).
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
        ("EST5:99", -(5 * 3_600 + 59 * 60)), ("XYZ-5:75", 5 * 3_600 + 59 * 60),
    ])
    func aPOSIXOffsetIsTimeWestOfUTC(setting: String, secondsEast: Int) {
        #expect(SystemTimeZone.zone(named: setting)?.secondsFromGMT() == secondsEast)
    }

    /// Abbreviations no zone file has (Foundation reads `JST` as Tokyo), a zone this machine does not have, a file
    /// outside the zone files: no zone, read as UTC, as the C library reads them (`TZ=JST date +%z` gives +0000, and
    /// so do the others); and offsets past any zone's, which the C library takes (`XYZ-15`: +1500; `GMT+0530`: -2400)
    /// and no zone here can be, read as UTC too. Each is noted, and UTC is in force, not /etc/localtime's zone nor
    /// Foundation's reading of `TZ`.
    @Test(arguments: [
        "JST", "CEST", "Foo/Bar", "/tmp/zoneinfo-nowhere", "../../../etc/passwd", "XYZ-15", "GMT+0530",
    ])
    func otherSettingsAreReadAsUTC(setting: String) {
        #expect(SystemTimeZone.zone(named: setting) == nil)
        // The note does not lay an offset past any zone's at the C library's door.
        let isOffset = ["XYZ-15", "GMT+0530"].contains(setting)
        #expect(
            SystemTimeZone.read(setting).note?.hasSuffix(isOffset ? "no zone has: read as UTC" : "reads it") == true)
        #expect(SystemTimeZone.read(setting).note?.hasPrefix("TZ=\(setting.debugDescription) ") == true)
        #expect(SystemTimeZone.read(setting).zone == SystemTimeZone.utc)
    }

    /// POSIX rules with summer time are read as their standard time, and noted: `date +%z` gives -0500 and +0100 under
    /// these in November, and -0400 and +0200 in July, which LiftLedger does not follow.
    @Test(arguments: [
        ("EST5EDT,M3.2.0,M11.1.0", -5 * 3_600), (":EST5EDT,M3.2.0,M11.1.0", -5 * 3_600),
        ("CET-1CEST,M3.5.0,M10.5.0/3", 3_600),
    ])
    func summerTimeRulesAreReadAsTheirStandardTime(setting: String, secondsEast: Int) {
        #expect(SystemTimeZone.zone(named: setting) == nil)
        #expect(SystemTimeZone.read(setting).note?.hasPrefix("TZ=\(setting.debugDescription) ") == true)
        #expect(SystemTimeZone.read(setting).zone.secondsFromGMT() == secondsEast)
    }

    /// /etc/localtime is a link into the zone files on Debian: `TZ=:/etc/localtime` is the zone the link names.
    @Test(.enabled(if: localtimeIsALink, "/etc/localtime is no link into the zone files here; skipped"))
    func theLocalZoneIsTheOneEtcLocaltimeNames() throws {
        let target = try FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime")
        let name = try #require(target.range(of: "zoneinfo/")).upperBound
        #expect(SystemTimeZone.zone(named: ":/etc/localtime")?.identifier == String(target[name...]))
    }

    /// No `TZ` is the system's zone; an empty one is UTC, as the C library has it (`TZ= date +%z`: +0000).
    @Test func noSettingIsTheSystemsZoneAndAnEmptyOneUTC() {
        #expect(SystemTimeZone.read(nil).note == nil && SystemTimeZone.read(nil).zone == .current)
        #expect(SystemTimeZone.read("").note == nil && SystemTimeZone.read("").zone == SystemTimeZone.utc)
    }
}

private let localtimeIsALink =
    (try? FileManager.default.destinationOfSymbolicLink(atPath: "/etc/localtime"))?.contains("zoneinfo/") == true
