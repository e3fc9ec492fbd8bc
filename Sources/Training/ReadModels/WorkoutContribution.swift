import EventJournal
import Foundation
import Projections

/// What one counted workout adds to the training read model: its history row, its day, its sets and sessions under
/// their exercises, and its share of each week's counters. When a workout changes, the read model moves from what
/// its old state contributed to what its new state does, so a correction, a late set, a new date or a deletion is
/// folded like any other event, and the result is the same as folding the final state once.
struct WorkoutContribution {
    var history: WorkoutSummary
    /// The local day it trained on; nil when every set is kept out as implausible, so that it makes no day of a
    /// streak, of the calendar or of a week's workouts.
    var trainedDay: Int?
    /// Each exercise's session in the workout, sorted by key.
    var sessions: [ExerciseSession]
    var weeks: [WeekKey: WeekCounter]
    /// The workout's start and id: its `history` key, and its place among an exercise's workouts in the `sessions`
    /// keys.
    var workoutKey: [UInt8]

    /// The first local day that is plausible for a workout: 2000-01-01, as a day number.
    static let earliestPlausibleDay = LocalDate("2000-01-01")!.dayNumber
    /// How far after its recording a workout may be dated and still be plausible (clocks differ).
    static let futureTolerance: Int64 = 86_400_000_000
    static let maximumPlausibleReps: UInt32 = 1_000
    static let maximumPlausibleMilligrams: Int64 = 1_000_000_000

    /// Whether `workout`, which started on the local day `day`, is dated implausibly: before 2000 on the calendar the
    /// history shows, or later than it was recorded.
    static func isImplausible(_ workout: Workout, day: Int) -> Bool {
        let recorded = workout.startRecordedAt.microsecondsSinceEpoch
        return day < earliestPlausibleDay || workout.startedAt.microsecondsSinceEpoch > recorded + futureTolerance
    }

    /// Whether a set is implausible by its own figures: more than 1,000 reps, 1,000 kg or 1,000 km.
    static func isImplausible(_ details: SetDetails) -> Bool {
        details.reps > maximumPlausibleReps || (details.weight?.milligrams ?? 0) > maximumPlausibleMilligrams
            || details.distanceMeters.map { TimeAndDistance.maximumMetres < $0 } == true
    }

    /// What `workout` contributes; `exercises` holds the facts of its exercises, in the order the workout lists them.
    init(_ workout: Workout, rules: Rules, exercises: [ExerciseFacts]) {
        let startedAt = workout.startedAt
        workoutKey = Key().instant(startedAt).text(workout.id).bytes
        let day = LocalDate.dayNumber(of: startedAt, in: rules.timeZone)
        let workoutIsImplausible = Self.isImplausible(workout, day: day)
        let week = Int32(LocalDate(dayNumber: day).weekStart(rules.weekStart).dayNumber)

        // Each exercise's counted sets, in the order they were logged: counted first, so that each list is made with
        // the room it needs.
        var exerciseOfSet = [Int](repeating: -1, count: workout.sets.count)
        var setCounts = [Int](repeating: 0, count: workout.exercises.count)
        for (index, set) in workout.sets.enumerated() {
            guard let exercise = workout.countedExerciseIndex(of: set) else { continue }
            exerciseOfSet[index] = exercise
            setCounts[exercise] += 1
        }
        var setsByExercise = setCounts.map { count in
            var facts: [SetFact] = []
            facts.reserveCapacity(count)
            return facts
        }
        for (index, set) in workout.sets.enumerated() where exerciseOfSet[index] >= 0 {
            let implausible = workoutIsImplausible || Self.isImplausible(set.details)
            setsByExercise[exerciseOfSet[index]].append(
                SetFact(
                    workoutId: workout.id, number: set.number, startedAt: startedAt, details: set.details,
                    loggedAt: set.loggedAt, position: set.position, isImplausible: implausible,
                    isExcluded: implausible && rules.excludeImplausible))
        }
        var lines: [WorkoutSummary.ExerciseLine] = []
        var sessions: [ExerciseSession] = []
        lines.reserveCapacity(workout.exercises.count)
        sessions.reserveCapacity(workout.exercises.count)
        var weeks: [WeekKey: WeekCounter] = [:]
        weeks.reserveCapacity(16)
        let everySetExcluded =
            !setsByExercise.allSatisfy(\.isEmpty) && setsByExercise.allSatisfy { $0.allSatisfy(\.isExcluded) }
        trainedDay = everySetExcluded ? nil : day
        var total = WeekCounter()
        total.workouts = everySetExcluded ? 0 : 1
        var workingSets: UInt32 = 0
        var implausibleSets: UInt32 = 0
        let primary = rules.primaryMilliWeight
        let secondary = rules.secondaryMilliWeight
        for (position, exercise) in workout.exercises.enumerated() {
            var exerciseSets = setsByExercise[position]
            guard !exerciseSets.isEmpty else { continue }
            let info = exercises[position]
            // The session stands as of the finish, or of the last change to it after the finish.
            let finished = workout.finishedPosition ?? 0
            var session = SessionFact(
                workoutId: workout.id, workoutName: workout.name, startedAt: startedAt,
                position: max(finished, workout.changesAfterFinish[exercise.exerciseId] ?? 0))
            var line = WorkoutSummary.ExerciseLine(
                exerciseId: exercise.exerciseId, name: exercise.name, sets: UInt32(exerciseSets.count), reps: 0,
                volume: 0)
            // The exercise's share of its muscles' and force's counters, added up over its sets and then added to
            // each counter once: counters add with wrapping arithmetic, so the order of the additions does not
            // matter.
            var muscleShare = (primary: WeekCounter(), secondary: WeekCounter(), force: WeekCounter())
            var countsForMuscles = false
            var isInOrder = true
            var previousNumber: UInt32 = 0
            for fact in exerciseSets {
                if fact.number < previousNumber { isInOrder = false }
                previousNumber = fact.number
                if fact.isImplausible { implausibleSets += 1 }
                let volume = fact.volume(rules, isAssisted: info.isAssisted)
                // An excluded set counts for nothing but the history's set counts.
                // Imports take any count a row gives (flagged past 1,000): sums stop at the type's bound.
                if !fact.isExcluded { line.reps = line.reps.addingClamped(fact.details.reps) }
                line.volume = line.volume.addingClamped(volume)
                session.volume = session.volume.addingClamped(volume)
                // The week's volume is the history's (warm-ups as the rules say); its sets and the muscles' counters
                // are working sets only.
                total.milliVolume = total.milliVolume.addingClamped(volume.multipliedClamped(by: 1_000))
                guard fact.details.kind != .warmup else { continue }
                workingSets += 1
                guard !fact.isExcluded else { continue }
                session.workingSets += 1
                session.reps = session.reps.addingClamped(fact.details.reps)
                if let seconds = fact.details.durationSeconds {
                    session.seconds = session.seconds.addingClamped(UInt64(seconds))
                }
                if let millimetres = fact.details.distanceMeters?.scaled(toDigits: 3), millimetres > 0 {
                    session.distanceMillimetres = session.distanceMillimetres.addingClamped(millimetres)
                }
                total.milliSets += 1_000
                countsForMuscles = true
                muscleShare.primary.add(
                    WeekCounter(milliSets: primary, milliVolume: volume.multipliedClamped(by: primary)))
                muscleShare.secondary.add(
                    WeekCounter(milliSets: secondary, milliVolume: volume.multipliedClamped(by: secondary)))
                muscleShare.force.add(WeekCounter(milliSets: 1_000, milliVolume: volume.multipliedClamped(by: 1_000)))
                // A missed lift (no reps) makes no record, nor the session's top weight.
                guard fact.details.reps > 0 else { continue }
                if info.isAssisted {
                    // The top weight is the least help, as for records; a set at body weight had none.
                    let help = fact.milligrams ?? 0
                    if help < (session.topWeight ?? .max) { session.topWeight = help }
                    continue
                }
                if let weight = fact.milligrams {
                    // A working set that is not excluded: its volume is the set's, worked out once above.
                    session.recordVolume = session.recordVolume.addingClamped(volume)
                    if weight > (session.topWeight ?? 0) { session.topWeight = weight }
                    if let weight = fact.details.weight,
                        let estimate = OneRepMaximum.estimate(
                            of: weight, reps: fact.details.reps, rpe: fact.details.rpe, rules: rules),
                        session.bestEstimate.map({ $0 < estimate }) ?? true
                    {
                        session.bestEstimate = estimate
                        session.bestEstimateSet = fact.number
                    }
                }
            }
            if countsForMuscles {
                func add(_ share: WeekCounter, to muscles: [String], weight: Int64) {
                    guard weight > 0 else { return }
                    for muscle in muscles {
                        weeks[WeekKey(week: week, name: muscle), default: WeekCounter()].add(share)
                    }
                }
                add(muscleShare.primary, to: info.primaryMuscles, weight: primary)
                add(muscleShare.secondary, to: info.secondaryMuscles, weight: secondary)
                if let force = info.force, force == "push" || force == "pull" {
                    weeks[WeekKey(week: week, name: "*" + force), default: WeekCounter()].add(muscleShare.force)
                }
            }
            lines.append(line)
            let key = Key().text(exercise.exerciseId).instant(startedAt).text(workout.id).bytes
            if !isInOrder { exerciseSets.sort { $0.number < $1.number } }
            sessions.append(
                ExerciseSession(key: key, exerciseId: exercise.exerciseId, fact: session, sets: exerciseSets))
        }
        weeks[WeekKey(week: week, name: ""), default: WeekCounter()].add(total)
        sessions.sort { $0.key.lexicographicallyPrecedes($1.key) }
        self.sessions = sessions
        self.weeks = weeks
        history = WorkoutSummary(
            workoutId: workout.id, name: workout.name, routineId: workout.routineId, startedAt: startedAt,
            finishedAt: workout.finishedAt ?? startedAt,
            // To the nearest second: a live start is a fraction past one, and a finish given as a time of day falls on
            // one, which cut down read a minute short by a second (`19m 59s`).
            durationSeconds: (workout.elapsedMicroseconds(at: workout.finishedAt ?? startedAt) + 500_000) / 1_000_000,
            note: workout.note, sets: UInt32(setCounts.reduce(0, +)), workingSets: workingSets,
            volume: lines.reduce(0) { $0.addingClamped($1.volume) }, implausibleSets: implausibleSets,
            exercises: lines, finishedPosition: workout.finishedPosition ?? 0)
    }
}

/// An exercise's session in one counted workout: the `sessions` row under `key` (the exercise, the workout's start and
/// the workout), holding its figures and its counted sets.
struct ExerciseSession: Equatable {
    let key: [UInt8]
    let exerciseId: String
    var fact: SessionFact
    /// The exercise's counted sets in the workout, by number.
    var sets: [SetFact]

    /// Writes the `sessions` row: the session's figures, then its sets.
    func writeRow(to writer: inout PayloadWriter) {
        fact.writeRow(to: &writer)
        SetFact.writeRow(sets, to: &writer)
    }
}

/// A `weeks` row's key: the week's first day and a muscle (or `""` for the week, `*push` and `*pull` for forces).
struct WeekKey: Hashable {
    let week: Int32
    let name: String

    /// The key's bytes in the table.
    var bytes: [UInt8] { Key().signed(week).text(name).bytes }
}

/// What the fold needs to know of an exercise: its muscles, its force and whether it is assisted, from the catalog or
/// a custom exercise.
struct ExerciseFacts: Sendable, Equatable {
    let primaryMuscles: [String]
    let secondaryMuscles: [String]
    let force: String?
    /// An assisted exercise (its name says so): the weight is help, and less is better.
    let isAssisted: Bool

    init(_ exercise: Exercise) {
        self.init(
            name: exercise.name, primaryMuscles: exercise.primaryMuscles, secondaryMuscles: exercise.secondaryMuscles,
            force: exercise.force)
    }

    /// An exercise the catalog does not know: no muscles.
    init(unknown id: String) {
        self.init(name: id, primaryMuscles: [], secondaryMuscles: [], force: nil)
    }

    /// An exercise as the training fold takes it: a custom exercise as `customExercises` (the training read model's
    /// `exercises` table) holds it, else the bundled catalog's, else one without muscles.
    static func folded(_ exerciseId: String, customExercises: ReadModelTable?) throws -> ExerciseFacts {
        let custom = try customExercises?.withValue(forKey: Array(exerciseId.utf8), custom(row:))
        return try custom ?? catalogued(exerciseId)
    }

    /// The custom exercise an `exercises` row of the training read model holds.
    static func custom(row raw: UnsafeRawBufferPointer) throws -> ExerciseFacts {
        let added = try ReadModelRow.decode(raw, table: "exercises") { bytes throws(PayloadError) in
            var reader = PayloadReader(bytes)
            return try CustomExerciseAdded(reading: &reader)
        }
        return ExerciseFacts(added.exercise)
    }

    /// An exercise as the bundled catalog has it, else one without muscles: the training fold's facts for an
    /// exercise that is not custom.
    static func catalogued(_ exerciseId: String) throws(CatalogError) -> ExerciseFacts {
        try ExerciseCatalog.bundled().exercise(id: exerciseId).map { ExerciseFacts($0) }
            ?? ExerciseFacts(unknown: exerciseId)
    }

    /// A muscle counts once for a set: listed twice, or as both primary and secondary (free-exercise-db lists the
    /// quadriceps both ways for Barbell Step Ups), it is taken once, as primary when it is listed so.
    private init(name: String, primaryMuscles: [String], secondaryMuscles: [String], force: String?) {
        var seen: Set<String> = []
        self.primaryMuscles = primaryMuscles.filter { seen.insert($0).inserted }
        self.secondaryMuscles = secondaryMuscles.filter { seen.insert($0).inserted }
        self.force = force
        // The word, not the letters: an Unassisted Dip is weighted.
        isAssisted = ExerciseCatalog.normalized(name).split(separator: " ").contains("assisted")
    }
}

extension FixedWidthInteger {
    /// The sum, or the nearest bound when it overflows.
    func addingClamped(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        return overflow ? (other > 0 ? .max : .min) : sum
    }

    /// The product, or the nearest bound when it overflows.
    func multipliedClamped(by other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        return overflow ? ((self < 0) != (other < 0) ? .min : .max) : product
    }
}

extension Workout {
    /// Whether its set `set` is implausible, as the read models judge it under rules of the time zone `timeZone`: the
    /// set's figures, or the workout's date (the rule `records.exclude-implausible` then keeps it out of records and
    /// volume).
    public func isImplausible(_ set: LoggedSet, timeZone: TimeZone) -> Bool {
        WorkoutContribution.isImplausible(self, day: LocalDate.dayNumber(of: startedAt, in: timeZone))
            || WorkoutContribution.isImplausible(set.details)
    }
}
