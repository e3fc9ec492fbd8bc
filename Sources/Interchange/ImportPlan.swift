import EventJournal
import Foundation
import Training

/// What importing a file's workouts takes, decided against a snapshot of the read models: the workouts not imported
/// yet, as new workout streams; corrections to those imported before that now read differently; and the custom
/// exercises for names that map to nothing.
struct ImportPlan {
    /// The snapshot has not folded a workout the journal holds: another writer appended meanwhile; decide again.
    struct SnapshotBehind: Error {}

    let workouts: [ImportedWorkout]
    let format: ExportFormat
    let digest: String
    let source: String
    /// The profile's time zone: the calendar on which a workout dated before 2000 is implausible.
    let timeZone: TimeZone
    /// Whether the file's times were read in a zone the import was given: only then is a start that reads otherwise
    /// than the imports left it the file's (the profile's zone may have changed since, with the times as they were).
    let correctsStarts: Bool

    /// The streams and events to append, all at once, and what they amount to.
    func appends(
        snapshot: TrainingSnapshot, journal: Journal, mapper: ExerciseMapper
    ) throws -> ([StreamAppend], PlanReport) {
        var report = PlanReport()
        var outcomes: [String: ExerciseMapper.Outcome] = [:]
        var customs: [CustomExerciseAdded] = []
        func outcome(_ set: ImportedSet) -> ExerciseMapper.Outcome {
            if let known = outcomes[set.exercise] { return known }
            var mapped = mapper.map(set.exercise, category: set.category)
            // Spellings of one new custom exercise are the exercise as its first spelling adds it.
            if case .custom(let added) = mapped {
                if let first = customs.first(where: { $0.exerciseId == added.exerciseId }) {
                    mapped = .custom(first)
                } else {
                    customs.append(added)
                }
            }
            outcomes[set.exercise] = mapped
            return mapped
        }
        let metadata = EventMetadata(correlationID: digest, source: source)
        let latest = Timestamp.now().adding(seconds: 86_400)
        var appends: [StreamAppend] = []
        var newWorkouts: [ImportedWorkout] = []
        // The counted workouts the journal holds, by the whole second they start in (an export gives no fractions):
        // read once, when a workout is new to its app's identity.
        var heldByStart: [Int64: [WorkoutSummary]]?
        // The counted workouts that start in `second`.
        func held(startingIn second: Int64) throws -> [WorkoutSummary] {
            let held = try heldByStart ?? Dictionary(grouping: snapshot.history()) { Self.second($0.startedAt) }
            heldByStart = held
            return held[second] ?? []
        }
        // The counted workouts that start in the second `workout` may have started in.
        func held(startingWith workout: ImportedWorkout) throws -> [WorkoutSummary] {
            try Self.starts(of: workout, in: timeZone).flatMap { try held(startingIn: Self.second($0)) }
        }
        // The same for the workouts deleted in LiftLedger, which stay so: read once, when one is held by neither.
        var deletedByStart: [Int64: [Workout]]?
        for workout in workouts {
            report.workouts += 1
            // Rest rows alone are no workout: a live one cannot finish without a set, and an export would leave it out.
            guard !workout.sets.isEmpty else {
                report.withoutSets += 1
                report.restRows += workout.items.count
                continue
            }
            let day = LocalDate.dayNumber(of: workout.start, in: timeZone)
            if day < Self.earliestPlausibleDay {
                report.implausible.append(
                    (workout.firstLine, "the workout is dated \(LocalDate(dayNumber: day)), before 2000"))
            } else if latest < workout.start {
                report.implausible.append(
                    (workout.firstLine, "the workout is dated \(LocalDate(dayNumber: day)), more than a day from now"))
            }
            var details: [SetDetails] = []
            for set in workout.sets {
                let mapped = outcome(set)
                report.count(set, mapped: mapped)
                details.append(
                    SetDetails(
                        exerciseId: mapped.exerciseId, weight: set.weight, reps: set.reps, kind: set.kind, rpe: set.rpe,
                        note: set.note, durationSeconds: set.durationSeconds, distanceMeters: set.distanceMeters))
            }
            report.restRows += workout.items.count - workout.sets.count
            let identity = Self.identity(format, workout)
            guard let position = try journal.position(ofEvent: identity) else {
                if try Self.holds(workout, sets: details, among: held(startingWith: workout), snapshot) {
                    report.alreadyImported += 1
                    continue
                }
                let deleted =
                    try deletedByStart
                    ?? Dictionary(
                        grouping: snapshot.everyWorkout().filter { $0.isDeleted && $0.finishedAt != nil },
                        by: { Self.second($0.startedAt) })
                deletedByStart = deleted
                let deletedCandidates = Self.starts(of: workout, in: timeZone).flatMap {
                    deleted[Self.second($0)] ?? []
                }
                if deletedCandidates.contains(where: {
                    $0.name == workout.name && Self.sameSets($0.liveSetDetails, details)
                }) {
                    report.alreadyImported += 1
                    report.leftDeleted += 1
                } else {
                    newWorkouts.append(workout)
                }
                continue
            }
            guard let stream = try journal.record(at: position)?.streamID else { throw SnapshotBehind() }
            guard let stored = try snapshot.workout(stream) else { throw SnapshotBehind() }
            // Deleted in LiftLedger: it stays deleted, and nothing is written to it (as `correct` and `edit` refuse).
            if stored.isDeleted {
                report.alreadyImported += 1
                report.leftDeleted += 1
                continue
            }
            // As the imports left it, the workout reads as the file does: whatever changed since was changed in
            // LiftLedger (a set corrected or removed, a new date), and stays. Only a workout that reads otherwise is
            // corrected, from how it stands.
            let imported = try Self.importedWorkout(of: stream, in: journal)
            let setsAsImported = Self.sameSets(imported?.liveSetDetails ?? [], details)
            let changedStart = correctsStarts && imported.map { $0.startedAt != workout.start } ?? false
            let changedNote = imported.map { Self.asRead($0.note) != Self.asRead(workout.note) } ?? false
            if setsAsImported && !changedStart && !changedNote {
                report.alreadyImported += 1
                continue
            }
            // LiftLedger's own export of this workout and another of its name starting in its second, written as one:
            // those workouts together, not a workout to correct with the other's sets.
            if !setsAsImported, !Self.sameSets(stored.liveSetDetails, details) {
                let together = try held(startingWith: workout)
                if together.count > 1, try Self.holds(workout, sets: details, among: together, snapshot) {
                    report.alreadyImported += 1
                    continue
                }
            }
            // As it stands, the workout may read as the file does already (LiftLedger's own export of it, after
            // changes made in LiftLedger): nothing to correct. A start or a note the file gives otherwise (read in
            // another time zone, a note written since in the app) is the file's.
            var corrections: [any TrainingEventPayload] = []
            let start = changedStart && stored.startedAt != workout.start ? workout.start : nil
            let note = changedNote && Self.asRead(stored.note) != Self.asRead(workout.note) ? workout.note ?? "" : nil
            if start != nil || note != nil {
                corrections.append(WorkoutEdited(startedAt: start, note: note))
            }
            if !setsAsImported, !Self.sameSets(stored.liveSetDetails, details) {
                let names = Dictionary(
                    outcomes.values.map { ($0.exerciseId, $0.name) }, uniquingKeysWith: { first, _ in first })
                corrections += Self.corrections(of: stored, to: details, names: { names[$0] ?? $0 })
            }
            if corrections.isEmpty {
                report.alreadyImported += 1
            } else {
                report.corrected += 1
                report.corrections.append(WorkoutCorrection(of: stored, by: corrections))
                appends.append(
                    StreamAppend(
                        stream: stream, expectedVersion: try snapshot.expectedVersion(of: stream),
                        // Dated at the end of the workout as the corrections leave it: its own, moved with its
                        // start when the file's start is taken (a length is never corrected). The file's end read in
                        // another zone, or after a date set in LiftLedger, could lie outside the workout.
                        events: corrections.map {
                            $0.proposed(
                                occurredAt: Self.end(of: stored, startingAt: start) ?? workout.end, metadata: metadata)
                        }))
            }
        }
        // A new workout that starts within a minute of one the journal holds may be that one from another app (Hevy
        // gives minutes, Strong seconds), renamed, or changed since an earlier export: added all the same, and named.
        for workout in newWorkouts {
            let near = try Self.starts(of: workout, in: timeZone).flatMap { start in
                let second = Self.second(start)
                return try (second - 59...second + 59).flatMap { try held(startingIn: $0) }
            }
            if let held = near.first {
                report.nearlyHeld.append((workout.firstLine, held.workoutId))
            }
        }
        let streams = try snapshot.freeWorkoutStreams(newWorkouts.count)
        for (workout, stream) in zip(newWorkouts, streams) {
            appends.append(
                StreamAppend(
                    stream: stream, expectedVersion: .noStream,
                    events: Self.events(workout, format: format, outcome: outcome, metadata: metadata)))
            report.added += 1
        }
        let newCustoms = try customs.filter { try journal.position(ofEvent: Self.identity(of: $0)) == nil }
        if !newCustoms.isEmpty {
            appends.insert(
                StreamAppend(
                    stream: "catalog", expectedVersion: try snapshot.expectedVersion(of: "catalog"),
                    events: newCustoms.map { $0.proposed(id: Self.identity(of: $0), metadata: metadata) }),
                at: 0)
        }
        report.customExercisesAdded = newCustoms.map(\.name)
        // A name the mapping file maps that no row has is most likely mistyped: its rows became custom exercises.
        let named = Set(workouts.flatMap(\.sets).map { ExerciseCatalog.key($0.exercise) })
        report.unusedMappings = mapper.mappedNames.filter { !named.contains($0.key) }.values.sorted()
        return (appends, report)
    }

    /// When `workout` may have started: its start, and, in the hour the clocks go back over (which a local time reads
    /// as its first pass), the second pass's time, which LiftLedger's own export writes the same.
    static func starts(of workout: ImportedWorkout, in timeZone: TimeZone) -> [Timestamp] {
        [workout.start] + (timeZone.secondPass(of: workout.start).map { [$0] } ?? [])
    }

    /// The whole second `time` falls in, since the epoch: a workout logged live starts at a fraction of a second, which
    /// LiftLedger's own export leaves out.
    static func second(_ time: Timestamp) -> Int64 {
        time.microsecondsSinceEpoch.dividedRoundingDown(by: 1_000_000)
    }

    /// Whether one of `candidates`, workouts the journal holds that start in the second `workout` does, is `workout`
    /// by its content: the same name and the same sets (or those of all of them of that name together). The journal
    /// then has it from another app or file (LiftLedger's own export in Strong's layout of a workout imported from
    /// Hevy, say), under an identity of that app's.
    static func holds(
        _ workout: ImportedWorkout, sets details: [SetDetails], among candidates: [WorkoutSummary],
        _ snapshot: TrainingSnapshot
    ) throws -> Bool {
        var together: [SetDetails] = []
        var named = 0
        for candidate in candidates where candidate.name == workout.name {
            guard let stored = try snapshot.workout(candidate.workoutId) else { continue }
            if sameSets(stored.liveSetDetails, details) { return true }
            together += stored.liveSetDetails
            named += 1
        }
        // Strong's layout tells workouts apart by start and name alone: LiftLedger's own export writes workouts of one
        // name that start in one second as one, their sets in the order of the history, which lists them as here.
        return named > 1 && sameSets(together, details)
    }

    /// Where the events an import writes come from: their metadata's source begins so.
    static let sourcePrefix = "import:"

    /// `stream`'s workout as the events imports wrote leave it: its start, note and sets as the files gave them.
    /// The end of `workout`, moved with its start to `start` when one is given.
    static func end(of workout: Workout, startingAt start: Timestamp?) -> Timestamp? {
        guard let finished = workout.finishedAt else { return nil }
        guard let start else { return finished }
        return Timestamp(
            microsecondsSinceEpoch: finished.microsecondsSinceEpoch + start.microsecondsSinceEpoch
                - workout.startedAt.microsecondsSinceEpoch)
    }

    static func importedWorkout(of stream: String, in journal: Journal) throws -> Workout? {
        let events = try journal.readStream(stream).filter { $0.metadata.source.hasPrefix(sourcePrefix) }.compactMap {
            try $0.withView { try RecordedTrainingEvent($0) }
        }
        return Workout.replaying(stream, events)
    }

    /// Whether two lists of sets are one workout's: each exercise's sets alike and in the same order, whichever
    /// exercise comes first (Strong's layout lists a workout's sets exercise by exercise).
    static func sameSets(_ sets: [SetDetails], _ others: [SetDetails]) -> Bool {
        func byExercise(_ sets: [SetDetails]) -> [SetDetails] {
            sets.enumerated().sorted { ($0.element.exerciseId, $0.offset) < ($1.element.exerciseId, $1.offset) }
                .map(\.element)
        }
        return sets.count == others.count && zip(byExercise(sets), byExercise(others)).allSatisfy(isSameSet)
    }

    /// Whether two sets are alike, their weights compared by mass: a file that gives 0 kg for the 0 lb stored, or
    /// the kilograms LiftLedger's export writes for pounds, says the same; their distances to the micrometre, as an
    /// import reads them (a distance logged in feet, `1.0001ft`, has more decimals in metres). Their notes are
    /// compared as a file gives them back, the spaces around them dropped (a note of spaces alone is none).
    static func isSameSet(_ set: SetDetails, _ other: SetDetails) -> Bool {
        var (set, other) = (set, other)
        guard set.weight?.milligrams == other.weight?.milligrams,
            set.distanceMeters?.scaled(toDigits: 6) == other.distanceMeters?.scaled(toDigits: 6)
        else { return false }
        (set.weight, other.weight, set.distanceMeters, other.distanceMeters) = (nil, nil, nil, nil)
        (set.note, other.note) = (asRead(set.note), asRead(other.note))
        return set == other
    }

    /// A note as a file gives it back: the spaces around it dropped, and one of spaces alone none.
    static func asRead(_ note: String?) -> String? {
        note.map { $0.trimmingCharacters(in: .whitespaces) }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The first local day a workout is plausible on: 2000-01-01, as a day number.
    static let earliestPlausibleDay = LocalDate("2000-01-01")!.dayNumber

    /// The id of a workout's start: the same for the same workout in any export of its app.
    static func identity(_ format: ExportFormat, _ workout: ImportedWorkout) -> UUID {
        DerivedID.make(["liftledger-import", format.rawValue, workout.key])
    }

    static func identity(of custom: CustomExerciseAdded) -> UUID {
        DerivedID.make(["liftledger-import", "custom-exercise", custom.exerciseId])
    }

    /// The events of a workout as a live one would have them: started, its exercises, its sets (spread over its
    /// length, since exports give no set times) and rests, finished.
    static func events(
        _ workout: ImportedWorkout, format: ExportFormat, outcome: (ImportedSet) -> ExerciseMapper.Outcome,
        metadata: EventMetadata
    ) -> [ProposedEvent] {
        let identity = identity(format, workout)
        var events: [ProposedEvent] = []
        func add(_ payload: any TrainingEventPayload, at time: Timestamp) {
            let id = events.isEmpty ? identity : DerivedID.make([identity.uuidString, String(events.count)])
            events.append(payload.proposed(id: id, occurredAt: time, metadata: metadata))
        }
        add(WorkoutStarted(name: workout.name), at: workout.start)
        var added: Set<String> = []
        for set in workout.sets {
            let mapped = outcome(set)
            if added.insert(mapped.exerciseId).inserted {
                add(ExerciseAdded(exerciseId: mapped.exerciseId, exerciseName: mapped.name), at: workout.start)
            }
        }
        let span = workout.end.microsecondsSinceEpoch - workout.start.microsecondsSinceEpoch
        let count = Int64(workout.items.count)
        var number: UInt32 = 0
        var last = workout.start
        /// The time of item `index`, the items spread evenly over the workout; the finish after the last.
        func timeOfItem(_ index: Int) -> Timestamp {
            guard index < workout.items.count else { return workout.end }
            return Timestamp(
                microsecondsSinceEpoch: workout.start.microsecondsSinceEpoch
                    + Int64(Double(span) * Double(index + 1) / Double(count + 1)))
        }
        for (index, item) in workout.items.enumerated() {
            let time = timeOfItem(index)
            switch item {
            case .set(let set):
                number += 1
                let mapped = outcome(set)
                add(
                    SetLogged(
                        setNumber: number,
                        set: SetDetails(
                            exerciseId: mapped.exerciseId, weight: set.weight, reps: set.reps, kind: set.kind,
                            rpe: set.rpe, note: set.note, durationSeconds: set.durationSeconds,
                            distanceMeters: set.distanceMeters)),
                    at: time)
                last = time
            case .rest(let seconds):
                let end = last.adding(seconds: Int64(seconds))
                add(
                    RestTimerStarted(durationSeconds: seconds, endsAt: end, afterSet: number == 0 ? nil : number),
                    at: last)
                // A rest longer than the time to what comes next (the file's rests need not fit the workout's length)
                // ends there, so that the events stay in the order of their times.
                let ended = max(last, min(end, timeOfItem(index + 1)))
                add(RestTimerFinished(endedAt: ended), at: ended)
                last = ended
            }
        }
        add(WorkoutFinished(note: workout.note), at: workout.end)
        return events
    }

    /// The events that make a stored workout's sets read as `details`: the file's sets in order against the sets
    /// still there in number order, corrected where they differ; sets beyond them logged under new numbers (never one
    /// a removed set had), and sets the file no longer has removed; with the exercises they need, without those the
    /// correction leaves with no set, and with the file's exercises moved into its order of first use, as a first
    /// import lists them (an exercise added by hand, with no set, comes after them).
    static func corrections(
        of stored: Workout, to details: [SetDetails], names: (String) -> String
    ) -> [any TrainingEventPayload] {
        var events: [any TrainingEventPayload] = []
        var present = Set(stored.exercises.map(\.exerciseId))
        // The workout's exercises in order, as the events leave them.
        var order = stored.exercises.map(\.exerciseId)
        func ensure(_ exerciseId: String) {
            if present.insert(exerciseId).inserted {
                events.append(ExerciseAdded(exerciseId: exerciseId, exerciseName: names(exerciseId)))
                order.append(exerciseId)
            }
        }
        let live = stored.sets.filter { !$0.isRemoved }.sorted { $0.number < $1.number }
        var next = (stored.sets.map(\.number).max() ?? 0) + 1
        for (index, wanted) in details.enumerated() {
            if index < live.count {
                guard !isSameSet(live[index].details, wanted) else { continue }
                ensure(wanted.exerciseId)
                events.append(SetCorrected(setNumber: live[index].number, set: wanted))
            } else {
                ensure(wanted.exerciseId)
                events.append(SetLogged(setNumber: next, set: wanted))
                next += 1
            }
        }
        for set in live.dropFirst(details.count) { events.append(SetRemoved(setNumber: set.number)) }
        // An exercise that had sets and has none after the correction leaves the workout; one that had none before
        // (added, or emptied, by hand) is left as it is.
        let keptExercises = Set(details.map(\.exerciseId))
        var emptied = Set(live.map(\.details.exerciseId)).subtracting(keptExercises)
        for exercise in stored.exercises where emptied.remove(exercise.exerciseId) != nil {
            events.append(ExerciseRemoved(exerciseId: exercise.exerciseId))
            order.removeAll { $0 == exercise.exerciseId }
        }
        // A workout that reads as the file has it keeps its order, which may be the user's.
        guard !events.isEmpty else { return [] }
        var wanted: [String] = []
        for set in details where !wanted.contains(set.exerciseId) && order.contains(set.exerciseId) {
            wanted.append(set.exerciseId)
        }
        for (index, exerciseId) in wanted.enumerated() where order[index] != exerciseId {
            order.removeAll { $0 == exerciseId }
            order.insert(exerciseId, at: index)
            events.append(ExerciseMoved(exerciseId: exerciseId, toIndex: UInt32(index)))
        }
        return events
    }
}

/// What an import changes in a workout it imported before, for the report: a file whose copy was cut short removes
/// the sets it lacks, as one edited in the app does, and the report says which.
public struct WorkoutCorrection: Sendable, Equatable {
    public let workoutId: String
    public let name: String
    public let startedAt: Timestamp
    public private(set) var setsAdded = 0
    public private(set) var setsCorrected = 0
    public private(set) var setsRemoved = 0
    public private(set) var exercisesAdded = 0
    public private(set) var exercisesRemoved = 0
    /// Exercises moved into the file's order: the file lists them in another, and its sets are corrected by their
    /// place in it, so that a move also corrects the sets it moves.
    public private(set) var exercisesMoved = 0
    /// Its start, or its note, taken from the file.
    public private(set) var isStartChanged = false
    public private(set) var isNoteChanged = false

    init(of workout: Workout, by events: [any TrainingEventPayload]) {
        workoutId = workout.id
        name = workout.name
        startedAt = workout.startedAt
        for event in events {
            switch event {
            case is SetLogged: setsAdded += 1
            case is SetCorrected: setsCorrected += 1
            case is SetRemoved: setsRemoved += 1
            case is ExerciseAdded: exercisesAdded += 1
            case is ExerciseRemoved: exercisesRemoved += 1
            case is ExerciseMoved: exercisesMoved += 1
            case let edited as WorkoutEdited:
                isStartChanged = isStartChanged || edited.startedAt != nil
                isNoteChanged = isNoteChanged || edited.note != nil
            default: continue
            }
        }
    }
}

/// What a plan amounts to, for the report.
struct PlanReport {
    var workouts = 0
    var added = 0
    var alreadyImported = 0
    /// Of those already imported, the workouts deleted in LiftLedger, left so.
    var leftDeleted = 0
    var corrected = 0
    /// Workouts of rest rows alone, passed over.
    var withoutSets = 0
    var sets = 0
    var warmupSets = 0
    var restRows = 0
    /// Weight × reps of every set (warm-ups included), in milligrams.
    var volume: Int64 = 0
    /// By app name: the exercise it maps to, whether custom, and its sets.
    var exercises: [String: (exerciseId: String, name: String, isCustom: Bool, sets: Int)] = [:]
    var customExercisesAdded: [String] = []
    var implausible: [(line: Int, why: String)] = []
    var corrections: [WorkoutCorrection] = []
    /// Workouts added that start within a minute of one the journal holds: the line of each, and that workout.
    var nearlyHeld: [(line: Int, workoutId: String)] = []
    /// The names the mapping file maps that no row of the file has, sorted.
    var unusedMappings: [String] = []

    mutating func count(_ set: ImportedSet, mapped: ExerciseMapper.Outcome) {
        sets += 1
        if set.kind == .warmup { warmupSets += 1 }
        if let weight = set.weight {
            let setVolume = weight.milligrams(times: set.reps)
            let (sum, overflow) = volume.addingReportingOverflow(setVolume ?? .max)
            volume = setVolume == nil || overflow ? .max : sum
            if weight.milligrams > 1_000_000_000 {
                implausible.append((set.line, "a weight of \(weight), over 1,000 kg"))
            }
        }
        if set.reps > 1_000 { implausible.append((set.line, "\(set.reps) reps, over 1,000")) }
        if let distance = set.distanceMeters, TimeAndDistance.maximumMetres < distance {
            implausible.append((set.line, "a distance of \(distance) m, over 1,000 km"))
        }
        var entry = exercises[set.exercise] ?? (mapped.exerciseId, mapped.name, false, 0)
        // A custom exercise is one whether this import adds it or an earlier one did.
        switch mapped {
        case .custom: entry.isCustom = true
        case .exercise(let exercise): entry.isCustom = entry.isCustom || exercise.isCustom
        }
        entry.sets += 1
        exercises[set.exercise] = entry
    }
}

/// The summary of an import.
public struct ImportReport: Sendable {
    public let file: String
    /// The layout read from the header.
    public let layout: String
    /// SHA-256 of the file, hex.
    public let digest: String
    public let rows: Int
    public let workouts: Int
    public let workoutsAdded: Int
    public let workoutsAlreadyImported: Int
    /// Of those already imported, the workouts deleted in LiftLedger: left so, whatever the file says of them.
    public let workoutsLeftDeleted: Int
    public let workoutsCorrected: Int
    /// Workouts of rest rows alone, passed over: no set makes them a workout.
    public let workoutsWithoutSets: Int
    public let sets: Int
    public let warmupSets: Int
    public let restRows: Int
    public let volumeMilligrams: Int64
    /// By app name, sorted: the exercise it maps to, whether custom, and its sets.
    public let exercises: [(appName: String, exerciseId: String, name: String, isCustom: Bool, sets: Int)]
    public let customExercisesAdded: [String]
    /// Rows imported as they are but flagged (no row is left out: each is a set or a rest): the line and why.
    public let implausible: [(line: Int, why: String)]
    /// The workouts imported before that the file changes, in the order they started.
    public let corrections: [WorkoutCorrection]
    /// Workouts added that start within a minute of one the journal holds (perhaps that one, from another app, renamed,
    /// or changed since an earlier export): the line of each, and that workout's id, in file order.
    public let nearlyHeld: [(line: Int, workoutId: String)]
    /// The time zone the file's local times were read in.
    public let timeZone: String
    /// The names the mapping file maps that no row of the file has (mistyped, perhaps), sorted.
    public let unusedMappings: [String]
    public let headBefore: UInt64
    public let headAfter: UInt64

    init(
        file: String, layout: String, digest: String, rows: Int, plan: PlanReport, timeZone: String,
        headBefore: UInt64, headAfter: UInt64
    ) {
        self.file = file
        self.layout = layout
        self.digest = digest
        self.rows = rows
        workouts = plan.workouts
        workoutsAdded = plan.added
        workoutsAlreadyImported = plan.alreadyImported
        workoutsLeftDeleted = plan.leftDeleted
        workoutsCorrected = plan.corrected
        workoutsWithoutSets = plan.withoutSets
        sets = plan.sets
        warmupSets = plan.warmupSets
        restRows = plan.restRows
        volumeMilligrams = plan.volume
        exercises = plan.exercises.map {
            ($0.key, $0.value.exerciseId, $0.value.name, $0.value.isCustom, $0.value.sets)
        }
        .sorted { $0.appName < $1.appName }
        customExercisesAdded = plan.customExercisesAdded
        implausible = plan.implausible.sorted { $0.line < $1.line }
        corrections = plan.corrections.sorted { ($0.startedAt, $0.workoutId) < ($1.startedAt, $1.workoutId) }
        nearlyHeld = plan.nearlyHeld.sorted { $0.line < $1.line }
        self.timeZone = timeZone
        unusedMappings = plan.unusedMappings
        self.headBefore = headBefore
        self.headAfter = headAfter
    }
}

extension Workout {
    /// The details of the sets that count (not removed, of an exercise still in the workout), in number order: what an
    /// import compares a file's sets with, and what an export of the workout writes.
    fileprivate var liveSetDetails: [SetDetails] {
        countedSets.sorted { $0.number < $1.number }.map(\.details)
    }
}
