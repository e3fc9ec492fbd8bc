import Foundation

extension TimeZone {
    /// The system's time zone, read as the C library reads it (`date`, Python's `time`): `TZ` when it names a zone this
    /// machine has, as an IANA name (`Asia/Tokyo`), the same after a colon (`:Asia/Tokyo`), a path to a zoneinfo file
    /// (`:/usr/share/zoneinfo/Asia/Tokyo`, `:/etc/localtime`) or a POSIX offset of whole hours, west of UTC positive,
    /// with no summer time (`JST-9`); else /etc/localtime's. Foundation reads the first form alone, and falls back to
    /// /etc/localtime on the others without a word: days were counted a day off.
    public static var system: TimeZone { SystemTimeZone.reading.zone }

    /// `TZ` when it is set and in none of the forms ``system`` reads (POSIX rules with summer time, such as
    /// `EST5EDT,M3.2.0,M11.1.0`, or a zone this machine does not have), so that /etc/localtime's zone is in force.
    public static var systemSettingNotRead: String? { SystemTimeZone.reading.notRead }
}

/// What `TZ` gave, read once per process (the read models' digest holds the zone, so it must not change under them).
enum SystemTimeZone {
    static let reading: (zone: TimeZone, notRead: String?) = read(ProcessInfo.processInfo.environment["TZ"])

    static func read(_ setting: String?) -> (zone: TimeZone, notRead: String?) {
        guard let setting, !setting.isEmpty else { return (.current, nil) }
        return zone(named: setting).map { ($0, nil) } ?? (.current, setting)
    }

    /// The zone a `TZ` value names, in the forms ``TimeZone/system`` reads.
    static func zone(named setting: String) -> TimeZone? {
        var name = setting.hasPrefix(":") ? String(setting.dropFirst()) : setting
        if name.hasPrefix("/") {
            let resolved = URL(fileURLWithPath: name).resolvingSymlinksInPath().path
            // A copy of a zone's file rather than a link to it: the zone Foundation reads from it.
            if resolved == "/etc/localtime" { return .current }
            guard let zoneinfo = resolved.range(of: "/zoneinfo/") else { return nil }
            name = String(resolved[zoneinfo.upperBound...])
            // tzdata's copies of every zone, with and without leap seconds.
            for prefix in ["posix/", "right/"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        }
        // POSIX `STD offset`: hours west of UTC, the sign the other way round from `GMT+5` as Foundation reads it.
        if let offset = name.wholeMatch(of: /(?:[A-Za-z]{3,}|<[A-Za-z0-9+-]+>)([+-]?)([0-9]{1,2})/) {
            guard let hours = Int(offset.2), hours <= 14 else { return nil }
            // IANA's Etc/GMT names have the POSIX sign: Etc/GMT-9 is nine hours east.
            return hours == 0
                ? TimeZone.usable("UTC") : TimeZone.usable("Etc/GMT\(offset.1 == "-" ? "-" : "+")\(hours)")
        }
        guard !TimeZone.isOffsetName(name) else { return nil }
        return TimeZone.usable(name)
    }
}
