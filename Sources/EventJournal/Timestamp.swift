#if canImport(Glibc)
    import Glibc
#endif

/// A UTC instant with microsecond resolution, as stored in records.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let microsecondsSinceEpoch: Int64

    public init(microsecondsSinceEpoch: Int64) { self.microsecondsSinceEpoch = microsecondsSinceEpoch }

    /// The wall clock now.
    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(microsecondsSinceEpoch: Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1_000)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microsecondsSinceEpoch < rhs.microsecondsSinceEpoch
    }

    /// RFC 3339 in UTC with six fractional digits, for example `2026-11-21T18:05:09.250000Z`.
    public var description: String {
        let seconds =
            microsecondsSinceEpoch >= 0
            ? microsecondsSinceEpoch / 1_000_000 : (microsecondsSinceEpoch - 999_999) / 1_000_000
        let micros = microsecondsSinceEpoch - seconds * 1_000_000
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(Int(parts.tm_year) + 1900, 4))-\(pad(Int(parts.tm_mon) + 1, 2))-\(pad(Int(parts.tm_mday), 2))"
            + "T\(pad(Int(parts.tm_hour), 2)):\(pad(Int(parts.tm_min), 2)):\(pad(Int(parts.tm_sec), 2))"
            + ".\(pad(Int(micros), 6))Z"
    }
}
