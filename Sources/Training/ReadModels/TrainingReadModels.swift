import EventJournal
import Foundation
import LMDB
import Projections

/// The training read models of a journal, kept in its environment and brought up to date before every question, so
/// that an answer reflects every event committed before it was asked, and nothing is replayed at start-up.
public final class TrainingReadModels: Sendable {
    public let journal: Journal
    let projector: Projector<RecordedTrainingEvent>
    /// Whether no read models are kept beside the journal: one on a read-only file system that has no tables for them
    /// (the projector's store is then an empty scratch store, which nothing folds into).
    private let keepsNone: Bool

    /// The projections, under `rules`, reading finished workouts' events from `workoutEvents`.
    static func projections(
        _ rules: Rules, workoutEvents: (any WorkoutEventSource)?
    ) -> [any Projection<RecordedTrainingEvent>] {
        [PlanProjection(), TrainingProjection(rules: rules, workoutEvents: workoutEvents)]
    }

    /// The projections beside the journal, under `rules`.
    private func projections(_ rules: Rules) -> [any Projection<RecordedTrainingEvent>] {
        Self.projections(rules, workoutEvents: JournalWorkoutEvents(journal, isBesideModel: true))
    }

    /// The projections' names and tables (under the default rules).
    public static var descriptors: [ProjectionDescriptor] {
        projections(Rules(), workoutEvents: nil).map { ProjectionDescriptor($0) }
    }

    /// Opens the read models beside `journal`, creating their tables the first time. On a read-only file system, where
    /// the tables cannot be made, a journal without them has read models that were never built: its answers are
    /// replayed (see ``answersByReplay``).
    public init(journal: Journal) throws {
        self.journal = journal
        let store: ReadModelStore
        do {
            store = try ReadModelStore(environment: journal.environment, projections: Self.descriptors)
            keepsNone = false
        } catch let error as LMDBError
            where journal.isReadOnly && [.notFound, .permissionDenied, .readOnlyFileSystem].contains(error.code)
        {
            // The tables missing, which LMDB cannot make in an environment opened read-only.
            store = try ReadModelStore.scratch(projections: Self.descriptors)
            keepsNone = true
        }
        projector = Projector(journal: journal, store: store, decoding: RecordedTrainingEvent.self)
    }

    /// The names of the projections.
    public static var names: [String] { descriptors.map(\.name) }

    /// Brings the read models up to the journal's head, rebuilding the ones built under other rules; returns the
    /// rules in force.
    /// Folds `chunkSize` events per transaction.
    @discardableResult
    public func catchUp(
        chunkSize: Int = 16_384, progress: Projector<RecordedTrainingEvent>.Progress? = nil
    ) throws -> Rules {
        let rules = try currentRules(chunkSize: chunkSize, progress: progress)
        let leftToOthers = try projector.catchUp(projections(rules), chunkSize: chunkSize, progress: progress)
        if leftToOthers.contains(TrainingProjection.name) {
            try catchUpTheModelBeingReplaced(chunkSize: chunkSize, progress: progress)
        }
        return rules
    }

    /// While another process rebuilds the training read model after a rule change, the live one folds the events
    /// committed since, under the rules that built it, so that an answer meanwhile reflects every event committed
    /// before it was asked (an imported workout was missing from `history` until the rebuild swapped its own in).
    /// Only folds: a read model that the other process swapped in meanwhile is left as it is. Left as it is too when
    /// this code did not build it, or no rules recorded built it.
    private func catchUpTheModelBeingReplaced(
        chunkSize: Int, progress: Projector<RecordedTrainingEvent>.Progress?
    ) throws {
        guard let built = try projector.store.read({ try $0.model(TrainingProjection.name)?.checkpoint }),
            built.version == TrainingProjection.codeVersion,
            let rules = try rules(thatBuilt: built)
        else { return }
        let projection = TrainingProjection(
            rules: rules, workoutEvents: JournalWorkoutEvents(journal, isBesideModel: true))
        try projector.foldNew([projection], chunkSize: chunkSize, progress: progress)
    }

    /// The rules the training read model at `checkpoint` was folded under: those in force at its position, or, when
    /// it has folded events past a rule change under the rules before (see ``catchUp(chunkSize:progress:)``), those
    /// in force before the latest change whose rules it holds; nil when no recorded rules match its digest. The
    /// `rules` and `profile` streams are read once.
    private func rules(thatBuilt checkpoint: Checkpoint) throws -> Rules? {
        let changes = try journal.readStream("rules").filter { $0.position <= checkpoint.position }.compactMap {
            record in Rules.change(in: record).map { (position: record.position, change: $0) }
        }
        // The profile's other records, body weights among them, change no rule.
        let zones = try journal.readStream("profile").filter { $0.position <= checkpoint.position }.compactMap {
            record in Rules.zone(setBy: record).map { (position: record.position, zone: $0) }
        }
        // The rules just before each change, latest first, after those at the checkpoint.
        let candidates = (changes.map(\.position) + zones.map(\.position)).sorted(by: >).map { $0 - 1 }
        for position in [checkpoint.position] + candidates {
            var rules = Rules()
            for (at, change) in changes where at <= position { rules.set(change.key, to: change.value) }
            if let zone = zones.last(where: { $0.position <= position }) { rules.timeZoneIdentifier = zone.zone }
            if TrainingProjection(rules: rules, workoutEvents: nil).rulesDigest == checkpoint.rulesDigest {
                return rules
            }
        }
        return nil
    }

    /// The rules in force: the `rules` stream's, with the profile's time zone, read from the plan read model
    /// (brought up to date first), so that nothing grows with the journal.
    public func currentRules(
        chunkSize: Int = 16_384, progress: Projector<RecordedTrainingEvent>.Progress? = nil
    ) throws -> Rules {
        // Read models that were never built, on a read-only file system, are not to be built there.
        if keepsNone { throw JournalError.readOnly(journal.path) }
        try projector.catchUp([PlanProjection()], chunkSize: chunkSize, progress: progress)
        return try storedRules()
    }

    /// The `rules` stream's rules, with the time zone of the profile as the plan read model holds it.
    private func storedRules() throws -> Rules {
        var rules = try Rules.recorded(in: journal)
        if let zone = try storedProfileZone(rules), TimeZone.usable(zone) != nil { rules.timeZoneIdentifier = zone }
        return rules
    }

    /// The profile's time zone as the plan read model holds it, if it sets one, read under `rules`, the `rules`
    /// stream's.
    private func storedProfileZone(_ rules: Rules) throws -> String? {
        try read(rules: rules) { try $0.profileFields().timeZone }
    }

    /// The time zone the last `ProfileUpdated` after `position` that sets a known one sets, if any: the `profile`
    /// stream read from its end, down to `position`.
    private func timeZone(setAfter position: UInt64) throws -> String? {
        var version = UInt64.max
        while true {
            let page = try journal.readStream("profile", from: version, direction: .backward, limit: 64)
            for record in page {
                guard record.position > position else { return nil }
                if case .profileUpdated(let update)? = try? TrainingEvent.decode(record), let zone = update.timeZone,
                    TimeZone.usable(zone) != nil
                {
                    return zone
                }
            }
            guard page.count == 64, let oldest = page.last, oldest.streamVersion > 1 else { return nil }
            version = oldest.streamVersion - 1
        }
    }

    /// Runs `body` with the read models as one read transaction sees them, under `rules`.
    public func read<T>(rules: Rules, _ body: (TrainingSnapshot) throws -> T) throws -> T {
        try projector.store.read { try body(trainingSnapshot($0, rules: rules)) }
    }

    private func trainingSnapshot(_ snapshot: ReadModelSnapshot, rules: Rules) throws -> TrainingSnapshot {
        try TrainingSnapshot(
            snapshot: snapshot, rules: rules, journal: journal,
            workoutEvents: JournalWorkoutEvents(journal, isBesideModel: true))
    }

    /// Brings the read models up to date, then runs `body` with them, under the rules they answer by (see
    /// ``readAnswering(inForce:_:)``).
    /// On a read-only file system, read models behind the journal answer from a replay (see ``answersByReplay``), and
    /// so do those that a full disk keeps from following it (``cannotFollow(_:)``).
    public func query<T>(_ body: (TrainingSnapshot) throws -> T) throws -> T {
        if try answersByReplay { return try Self.replayed(journal, asOf: .position(.max)).read(body) }
        let rules: Rules
        do {
            rules = try catchUp()
        } catch  where Self.cannotFollow(error) {
            return try Self.replayed(journal, asOf: .position(.max)).read(body)
        }
        return try readAnswering(inForce: rules, body)
    }

    /// Whether `error`, from bringing the read models up to date, is a full disk: they cannot follow the journal
    /// until there is room, and a replay into a scratch store (in the temporary directory, often on another disk)
    /// answers meanwhile.
    public static func cannotFollow(_ error: any Error) -> Bool {
        JournalError.from(error)?.code == .outOfSpace
    }

    /// Whether the journal is on a read-only file system and these read models are behind it, or were never built
    /// there: they cannot be brought up to date, so answers come from a replay (``replayed(_:asOf:progress:)``).
    public var answersByReplay: Bool {
        get throws { try journal.isReadOnly && (keepsNone || status().contains { !$0.isCurrent || $0.lag > 0 }) }
    }

    /// Runs `body` with the read models as one read transaction sees them, under the rules they answer by: `rules`,
    /// those in force, once the training read model is built by them; while another process rebuilds it after a
    /// change (which ``catchUp(chunkSize:progress:)`` leaves to that process), the rules that built it (see
    /// ``rules(thatBuilt:)``), so that its figures are not labelled with rules that did not make them. Those rules
    /// are read between transactions (a transaction inside another could not adopt a map another process grew), and
    /// the checkpoint is checked again in the transaction that answers: a rebuild swapped in meanwhile is read again.
    /// Given `onReplay`, a read model that other code built (another process rebuilds it for its own) is not read:
    /// `onReplay` is called, and the answer replayed from the journal. Without it, such a snapshot is not caught up
    /// (``TrainingSnapshot/isCaughtUp``), for a command to wait on.
    public func readAnswering<T>(
        inForce rules: Rules, onReplay: (() -> Void)? = nil, _ body: (TrainingSnapshot) throws -> T
    ) throws -> T {
        var answering = rules
        // The checkpoint whose rules `answering` are: one built under other rules still (none should be) answers
        // under them, rather than being asked again for ever.
        var loadedFor: Checkpoint?
        while true {
            let digest = TrainingProjection(rules: answering, workoutEvents: nil).rulesDigest
            let answer = try projector.store.read { snapshot -> Answer<T> in
                let training = try trainingSnapshot(snapshot, rules: answering)
                if onReplay != nil, training.isBuiltByOtherCode { return .builtByOtherCode }
                if let built = try snapshot.model(TrainingProjection.name)?.checkpoint, built.rulesDigest != digest,
                    built != loadedFor
                {
                    return .builtUnderOtherRules(built)
                }
                return .answered(try body(training))
            }
            switch answer {
            case .answered(let value):
                return value
            case .builtByOtherCode:
                onReplay?()
                return try Self.replayed(journal, asOf: .position(.max)).read(body)
            case .builtUnderOtherRules(let checkpoint):
                answering =
                    try self.rules(thatBuilt: checkpoint) ?? Rules.load(from: journal, through: checkpoint.position)
                loadedFor = checkpoint
            }
        }
    }

    /// What a read under given rules gives: the answer, or the training read model's checkpoint, built under others,
    /// or that a read model was built by other code.
    private enum Answer<T> {
        case answered(T)
        case builtUnderOtherRules(Checkpoint)
        case builtByOtherCode
    }

    /// Runs `body` on a snapshot of read models that have folded every record the journal holds in it, under the
    /// rules in force. Read models that another process is rebuilding after a rule change (or that a writer got ahead
    /// of) are waited for, up to half a minute.
    public func readCaughtUp<T>(_ body: (TrainingSnapshot) throws -> T) async throws -> T {
        var wait = CatchUpWait()
        while true {
            let rules = try catchUp()
            let result = try read(rules: rules) { snapshot -> T? in
                try snapshot.isCaughtUp && snapshot.isBuilt(under: rules) ? try body(snapshot) : nil
            }
            if let result { return result }
            guard try await wait.next(rebuilder: trainingRebuilder) else { throw CatchUpWait.expired }
        }
    }

    /// The id of the live process rebuilding the training read model, if one is.
    public func trainingRebuilder() throws -> Int32? {
        try projector.store.read { try $0.rebuilder(TrainingProjection.name) }
    }

    /// The figures a rule change can move, once the read models have folded every record, and today in the rules'
    /// zone: what a change's preview compares with (compared with read models another process is rebuilding after an
    /// earlier change, it would count that change as the new one's).
    public func caughtUpAnalytics() async throws -> (AnalyticsView, today: LocalDate) {
        try await readCaughtUp { snapshot in
            let today = LocalDate(Date(), in: snapshot.rules.timeZone)
            return (try snapshot.analyticsView(today: today), today)
        }
    }

    /// Rebuilds one projection (or all) from the first event, into the spare tables, then swaps them in, and brings
    /// the read models up to the head under the rules in force then. Returns the names of the projections this call
    /// did not rebuild: another process took their rebuild over, under rules changed meanwhile, or swapped in one
    /// under them.
    @discardableResult
    public func rebuild(
        _ name: String? = nil, progress: Projector<RecordedTrainingEvent>.Progress? = nil
    ) throws -> [String] {
        let rules = try currentRules()
        let chosen = projections(rules).filter { name == nil || $0.name == name }
        guard !chosen.isEmpty else {
            throw TrainingError(
                .notFound, "no projection named \(name.map(\.debugDescription) ?? "")",
                remedy: "the projections are: \(Self.names.joined(separator: ", "))")
        }
        let takenOver = try projector.rebuild(chosen, progress: progress)
        // Under the rules in force now: the rules read above may have changed during the rebuild (it was then taken
        // over), and a catch-up under them would rebuild the read model the change brought back to them. A change
        // of rules there rebuilds again: with progress too.
        try catchUp(progress: progress)
        return takenOver
    }

    /// Each projection's checkpoint, code version, rules digest and lag behind the journal, read without catching up
    /// or writing anything.
    public func status() throws -> [ProjectionStatus] {
        guard !keepsNone else {
            let head = try journal.head().position
            return projections(try Rules.load(from: journal)).map { projection in
                ProjectionStatus(
                    name: projection.name, codeVersion: projection.version, rulesDigest: projection.rulesDigest,
                    checkpoint: nil, head: head, isRebuilding: false, rebuildPosition: nil, rebuildIsCurrent: false)
            }
        }
        // The plan read model's time zone, as it stands, unless the profile set another since the model's checkpoint:
        // that one is in force. Only the profile's records after the checkpoint are read (reading the whole stream
        // would read every body weight ever recorded, a cost that grows with the journal).
        var rules = try storedRules()
        let planPosition = try projector.store.read { try $0.model(PlanProjection.name)?.checkpoint.position } ?? 0
        if let zone = try timeZone(setAfter: planPosition) { rules.timeZoneIdentifier = zone }
        return try projector.store.read { snapshot in
            let head = try journal.headPosition(in: snapshot.transaction)
            return try projections(rules).map { projection in
                let model = try snapshot.model(projection.name)
                let rebuild = try snapshot.rebuildCheckpoint(projection.name)
                return ProjectionStatus(
                    name: projection.name, codeVersion: projection.version, rulesDigest: projection.rulesDigest,
                    checkpoint: model?.checkpoint, head: head, isRebuilding: try snapshot.isRebuilding(projection.name),
                    rebuildPosition: rebuild?.position,
                    rebuildIsCurrent: rebuild.map {
                        $0.version == projection.version && $0.rulesDigest == projection.rulesDigest
                    } ?? false)
            }
        }
    }

    /// The training read model's checkpoint, read without catching up; nil when it was never built.
    public func trainingCheckpoint() throws -> Checkpoint? {
        try projector.store.read { try $0.model(TrainingProjection.name)?.checkpoint }
    }

    /// Why a catch-up rebuilt the training read model that `checkpoint` stood for, when the cause is not a change of
    /// the journal's rules: another version of liftledger built it, or (with no time zone in the profile, so that each
    /// process counts days in its system's) a process in another time zone; nil for any other cause.
    public func cause(ofRebuildFrom checkpoint: Checkpoint) throws -> RebuildCause? {
        if checkpoint.version != TrainingProjection.codeVersion { return .otherCode }
        let planPosition = try projector.store.read { try $0.model(PlanProjection.name)?.checkpoint.position } ?? 0
        let profileZone = try timeZone(setAfter: planPosition) ?? (try storedProfileZone(Rules.recorded(in: journal)))
        // A zone this system does not know counts days in the system's too. No rules of the journal's past, each with
        // this process's zone, built it.
        let countsInSystemZone = profileZone.map { TimeZone.usable($0) == nil } ?? true
        return try countsInSystemZone && rules(thatBuilt: checkpoint) == nil ? .otherSystemTimeZone : nil
    }

    /// What made a catch-up rebuild a read model, besides a change of the journal's rules (see
    /// ``cause(ofRebuildFrom:)``).
    public enum RebuildCause: Sendable {
        case otherCode
        case otherSystemTimeZone
    }

    // MARK: The past, and previews

    /// A point of the journal's past: a position (the journal as it stood then), or an instant (the events that had
    /// occurred by then, under the rules in force then).
    public enum Point: Sendable, Equatable {
        case position(UInt64)
        case instant(Timestamp)
    }

    /// The read models of `journal` as they stood at `point`, replayed into a scratch store under the rules in force
    /// then, without the read models kept beside it: for a journal on a read-only file system too, whose own cannot
    /// be built or brought up to date there (``answersByReplay``).
    public static func replayed(
        _ journal: Journal, asOf point: Point, progress: Projector<RecordedTrainingEvent>.Progress? = nil
    ) throws -> ReplayedReadModels {
        let last: UInt64
        let latest: Timestamp?  // the latest occurrence admitted, if any bounds it
        switch point {
        case .position(let position):
            (last, latest) = (position, nil)
        case .instant(let instant):
            (last, latest) = (.max, instant)
        }
        let admits: @Sendable (Timestamp) -> Bool = { occurredAt in latest.map { occurredAt <= $0 } ?? true }
        // As of an instant, a time before the first zone the profile set is read in that zone (docs/RULES.md).
        let rules = try Rules.load(from: journal, through: last, firstZoneBeforeIt: latest != nil) {
            admits($0.occurredAt)
        }
        // A custom exercise counts as of any instant: an import adds one now for workouts dated years ago (and
        // `edit --date` can move a workout before its exercise was added), and they keep its name and muscles.
        let customExercise = Array(CustomExerciseAdded.typeName.utf8)
        return try replay(
            journal, under: rules, through: last,
            including: { admits($0.occurredAt) || $0.typeUTF8.elementsEqual(customExercise) }, progress: progress)
    }

    /// The read models as they would stand under `rules`, replayed into a scratch store: a preview of a change.
    public func preview(
        under rules: Rules, progress: Projector<RecordedTrainingEvent>.Progress? = nil
    ) throws -> ReplayedReadModels {
        try Self.replay(journal, under: rules, through: .max, including: { _ in true }, progress: progress)
    }

    /// The tables of these read models whose rows differ from those `replayed` holds, with how many rows differ.
    public func tableDifferences(from replayed: ReplayedReadModels) throws -> [TableDifference] {
        try projector.store.tableDifferences(from: replayed.store)
    }

    private static func replay(
        _ journal: Journal, under rules: Rules, through last: UInt64,
        including include: @escaping @Sendable (RecordView) -> Bool,
        progress: Projector<RecordedTrainingEvent>.Progress?
    ) throws -> ReplayedReadModels {
        let store = try ReadModelStore.scratch(projections: Self.descriptors)
        let replayer = Projector(journal: journal, store: store, decoding: RecordedTrainingEvent.self)
        let head = try journal.head().position
        let workoutEvents = JournalWorkoutEvents(journal, isBesideModel: false, including: include)
        try replayer.replay(
            Self.projections(rules, workoutEvents: workoutEvents), through: min(last, head), including: include,
            progress: progress)
        return ReplayedReadModels(store: store, rules: rules, workoutEvents: workoutEvents)
    }
}

/// Read models replayed into a scratch store, removed when this value goes.
public final class ReplayedReadModels: Sendable {
    let store: ReadModelStore
    public let rules: Rules
    let workoutEvents: JournalWorkoutEvents

    init(store: ReadModelStore, rules: Rules, workoutEvents: JournalWorkoutEvents) {
        self.store = store
        self.rules = rules
        self.workoutEvents = workoutEvents
    }

    /// Runs `body` with the replayed read models.
    public func read<T>(_ body: (TrainingSnapshot) throws -> T) throws -> T {
        try store.read { snapshot in
            try body(TrainingSnapshot(snapshot: snapshot, rules: rules, journal: nil, workoutEvents: workoutEvents))
        }
    }
}

/// Where a projection stands.
public struct ProjectionStatus: Sendable {
    public let name: String
    public let codeVersion: UInt32
    /// The digest of the rules in force now, which the read model must have been built under; the time zone in it is
    /// the profile's last, whether the plan read model has folded it yet or not.
    public let rulesDigest: [UInt8]
    /// Nil when it was never built.
    public let checkpoint: Checkpoint?
    public let head: UInt64
    public let isRebuilding: Bool
    /// Where a rebuild under way, or cut short, has got to; nil when there is none.
    public let rebuildPosition: UInt64?
    /// Whether that rebuild is by this code under the rules in force: one by other code or rules is started anew, not
    /// resumed.
    public let rebuildIsCurrent: Bool

    /// Events committed that it has not folded.
    public var lag: UInt64 { head - min(head, checkpoint?.position ?? 0) }

    /// Whether it was built by this code under the rules in force.
    public var isCurrent: Bool {
        checkpoint.map { $0.version == codeVersion && $0.rulesDigest == rulesDigest } ?? false
    }
}
