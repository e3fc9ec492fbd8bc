import EventJournal
import Foundation

/// Who trains: what `profile set` recorded, merged.
public struct Profile: Sendable {
    public internal(set) var name: String?
    public internal(set) var age: UInt32?
    public internal(set) var heightCentimeters: ExactDecimal?
    /// The unit a weight without one is read in.
    public internal(set) var unit: MassUnit = .kilograms
    /// An IANA name; nil means the system's time zone.
    public internal(set) var timeZoneName: String?
    /// Body-weight entries, oldest first by when they were taken.
    public internal(set) var bodyWeights: [(at: Timestamp, weight: Weight)] = []

    /// The time zone local days are counted in.
    public var timeZone: TimeZone {
        timeZoneName.flatMap(TimeZone.usable) ?? .system
    }

    /// The time zone's name as it was set (`UTC`, `GMT+2`; Foundation gives those as `GMT` and `GMT+0200`), else the
    /// system's.
    public var timeZoneIdentifier: String { timeZoneName ?? TimeZone.system.identifier }

    /// The profile as the journal's `profile` stream leaves it, read from that stream alone (not from read models).
    public static func recorded(in journal: Journal) throws -> Profile {
        var profile = Profile()
        for record in try journal.readStream("profile") {
            if let event = try TrainingEvent.decode(record) { profile.apply(event, at: record.occurredAt) }
        }
        return profile
    }

    mutating func apply(_ event: TrainingEvent, at time: Timestamp) {
        switch event {
        case .profileUpdated(let update):
            if let name = update.name { self.name = name }
            if let age = update.age { self.age = age }
            if let height = update.heightCentimeters { heightCentimeters = height }
            if let unit = update.unit { self.unit = unit }
            // A zone this machine does not know leaves the one before in force, as for the rules.
            if let zone = update.timeZone, TimeZone.usable(zone) != nil { timeZoneName = zone }
        case .bodyWeightRecorded(let recorded):
            // One recorded later may have been taken earlier (`profile set --at`); of equal times, recorded order.
            let index = bodyWeights.lastIndex { $0.at <= time }.map { $0 + 1 } ?? 0
            bodyWeights.insert((time, recorded.weight), at: index)
        default:
            break
        }
    }
}
