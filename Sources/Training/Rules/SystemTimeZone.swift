import Foundation

extension TimeZone {
    /// The system's time zone, read as the C library reads it (`date`, Python's `time`): `TZ` when it names a zone
    /// file of the system's (`Asia/Tokyo`, `:Asia/Tokyo`, `right/Asia/Tokyo`, `:/usr/share/zoneinfo/Asia/Tokyo`,
    /// `:/etc/localtime`) or is a POSIX offset (`JST-9`, `IST-5:30`, west of UTC positive); POSIX rules with summer
    /// time (`EST5EDT,M3.2.0,M11.1.0`) as their standard time, the summer time left out; UTC for an empty `TZ` and
    /// one in no form the C library reads (an abbreviation no zone file has, such as `JST`); /etc/localtime's zone
    /// with no `TZ`. Foundation reads `TZ` its own way: `JST` as Tokyo (`date`: UTC), `UTC-3` three hours west
    /// (`date`: east), and the other forms not at all: days were counted a day off.
    public static var system: TimeZone { SystemTimeZone.reading.zone }

    /// How ``system`` read `TZ`, when it is set and names no zone as it stands (POSIX rules with summer time, an
    /// abbreviation no zone file has): what `profile show` notes.
    public static var systemSettingNote: String? { SystemTimeZone.reading.note }
}

/// What `TZ` gave, read once per process (the read models' digest holds the zone, so it must not change under them).
enum SystemTimeZone {
    static let reading: (zone: TimeZone, note: String?) = read(ProcessInfo.processInfo.environment["TZ"])

    /// UTC under the name Debian's /etc/localtime gives it, so that an empty `TZ` and none on a UTC system are one
    /// zone to the read models' digest (Foundation names `UTC` `GMT`).
    static let utc = TimeZone(identifier: "Etc/UTC")!

    /// Where the system keeps its zone files, as the C library looks for them.
    static let zoneFiles = "/usr/share/zoneinfo/"

    static func read(_ setting: String?) -> (zone: TimeZone, note: String?) {
        guard let setting else { return (.current, nil) }  // /etc/localtime's zone, as Foundation reads it too
        guard !setting.isEmpty else { return (utc, nil) }  // set and empty: UTC, as the C library has it
        if let zone = zone(named: setting) { return (zone, nil) }
        let shown = "TZ=\(setting.debugDescription)"
        let name = setting.hasPrefix(":") ? String(setting.dropFirst()) : setting
        if let standard = standardTime(of: name) {
            return (standard, "\(shown) read as its standard time, without its summer time")
        }
        // The C library takes an offset of up to 24 hours; no zone has one past 14.
        if name.prefixMatch(of: posixOffset) != nil { return (utc, "\(shown) is an offset no zone has: read as UTC") }
        return (utc, "\(shown) names no zone: UTC, as the C library reads it")
    }

    /// POSIX `STD offset`: a name, then hours west of UTC, then minutes and seconds.
    static var posixOffset: Regex<(Substring, Substring, Substring, Substring?, Substring?)> {
        /(?:[A-Za-z]{3,}|<[A-Za-z0-9+-]+>)([+-]?)([0-9]{1,2})(?::([0-9]{2}))?(?::([0-9]{2}))?/
    }

    /// The standard time of POSIX rules with summer time (`EST5EDT,M3.2.0,M11.1.0`: five hours west of UTC): its
    /// `STD offset`, followed by the summer time's name.
    static func standardTime(of name: String) -> TimeZone? {
        guard let match = name.prefixMatch(of: posixOffset),
            name[match.range.upperBound...].wholeMatch(of: /(?:[A-Za-z]{3,}|<[A-Za-z0-9+-]+>).*/) != nil
        else { return nil }
        return zone(named: String(name[match.range]))
    }

    /// The zone a `TZ` value names, in the forms ``TimeZone/system`` reads.
    static func zone(named setting: String) -> TimeZone? {
        let name = setting.hasPrefix(":") ? String(setting.dropFirst()) : setting
        if name.hasPrefix("/") { return zone(ofFile: name) }
        // A name is a zone file's, when the system has one of that name: `JST`, which none has, is no zone.
        if FileManager.default.fileExists(atPath: zoneFiles + name) { return zone(ofFile: zoneFiles + name) }
        // POSIX `STD offset`: hours west of UTC, then minutes and seconds, the sign the other way round from `GMT+5`
        // as Foundation reads it.
        guard let match = name.wholeMatch(of: posixOffset), let hours = Int(match.2) else {
            // A system without zone files: the names Foundation's own data has.
            guard !FileManager.default.fileExists(atPath: zoneFiles),
                TimeZone.knownTimeZoneIdentifiers.contains(name)
            else { return nil }
            return TimeZone.usable(name)
        }
        // The C library takes minutes and seconds past 59 as 59 (`EST5:99` is 5:59 west).
        let minutes = min(59, match.3.flatMap { Int($0) } ?? 0)
        let seconds = min(59, match.4.flatMap { Int($0) } ?? 0)
        let west = (hours * 3_600 + minutes * 60 + seconds) * (match.1 == "-" ? -1 : 1)
        guard west != 0 else { return utc }
        // IANA's Etc/GMT names have the POSIX sign (Etc/GMT-9 is nine hours east) and whole hours.
        if minutes == 0, seconds == 0, let zone = TimeZone.usable("Etc/GMT\(west < 0 ? "-" : "+")\(hours)") {
            return zone
        }
        return TimeZone(secondsFromGMT: -west).flatMap { TimeZone.usable($0.identifier) }
    }

    /// The zone of a zone file: its path, links resolved, after the zone files' directory, is the zone's name.
    static func zone(ofFile path: String) -> TimeZone? {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        guard let files = resolved.range(of: "/zoneinfo/") else {
            // A copy of a zone's file at /etc/localtime rather than a link to it: the zone Foundation reads from it
            // when `TZ` does not say otherwise, Debian's /etc/timezone else.
            guard resolved == "/etc/localtime" else { return nil }
            let named = (try? String(contentsOfFile: "/etc/timezone", encoding: .utf8))?
                .trimmingCharacters(in: .whitespacesAndNewlines)
            return named.flatMap(TimeZone.usable)
        }
        var name = String(resolved[files.upperBound...])
        // tzdata's copies of every zone, with and without leap seconds.
        for prefix in ["posix/", "right/"] where name.hasPrefix(prefix) { name.removeFirst(prefix.count) }
        guard !TimeZone.isOffsetName(name) else { return nil }
        return TimeZone.usable(name)
    }
}
