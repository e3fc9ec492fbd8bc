import EventJournal
import LMDB
import Projections

/// Where the training fold and its queries find a finished workout's events. The training read model keeps the state
/// of workouts in progress only: a finished workout's is worked out again from its events when something needs it (a
/// query that shows it, or an event that changes it after it ended). Storing every workout's whole state cost a
/// rebuild more than working out again the few that it needs.
public protocol WorkoutEventSource: Sendable {
    /// The events of `stream` folded into the read model before position `position`, in order. `transaction` is the
    /// read model's own transaction (a fold's or a query's).
    func events(
        of stream: String, before position: UInt64, in transaction: Transaction
    ) throws -> [RecordedTrainingEvent]
}

/// A journal's workout events: read in the read model's own transaction when the read model is kept beside the
/// journal, else in a read transaction of the journal's own; only those `include` admits (an as-of replay leaves out
/// the events that had not occurred by then).
public struct JournalWorkoutEvents: WorkoutEventSource {
    let journal: Journal
    let isBesideModel: Bool
    let include: @Sendable (RecordView) -> Bool

    /// The events of `journal`; `isBesideModel` says whether the read model is kept in the journal's environment, and
    /// `include` admits the events it was folded from.
    public init(
        _ journal: Journal, isBesideModel: Bool,
        including include: @escaping @Sendable (RecordView) -> Bool = { _ in true }
    ) {
        self.journal = journal
        self.isBesideModel = isBesideModel
        self.include = include
    }

    public func events(
        of stream: String, before position: UInt64, in transaction: Transaction
    ) throws
        -> [RecordedTrainingEvent]
    {
        var events: [RecordedTrainingEvent] = []
        let collect = { (record: RecordView) throws -> Bool in
            guard record.position < position else { return false }
            if include(record), let event = try RecordedTrainingEvent(record) { events.append(event) }
            return true
        }
        if isBesideModel {
            try journal.forEachRecord(of: stream, in: transaction, collect)
        } else {
            try journal.forEachRecord(of: stream, collect)
        }
        return events
    }
}

extension Workout {
    /// The workout of `stream` after `events`, its stream's events in order, each applied as the training fold
    /// applies it; nil when they do not start it.
    public static func replaying(_ stream: String, _ events: [RecordedTrainingEvent]) -> Workout? {
        var workout: Workout?
        for recorded in events {
            switch recorded.event {
            case .workoutStarted(let started):
                workout = Workout(
                    id: stream, started: started, at: recorded.occurredAt, recordedAt: recorded.recordedAt)
            case _ where recorded.event.isWorkoutEvent:
                workout?.apply(recorded.event, at: recorded.occurredAt, position: recorded.position)
            default:
                continue
            }
        }
        return workout
    }
}
