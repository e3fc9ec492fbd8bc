import EventJournal
import Foundation

extension TrainingLog {
    /// The body weights a profile takes, in kilograms.
    static let bodyWeightKilograms = ExactDecimal(20)...ExactDecimal(400)

    /// The body weights a profile takes, in both units, for messages: `from 20 to 400 kg (44.1 to 881.8 lb)`.
    public static var bodyWeightRange: String {
        func pounds(_ kilograms: ExactDecimal) -> String {
            MassUnit.pounds.text(milligrams: Score(kilograms.scaled(toDigits: 6) ?? 0), digits: 1)
        }
        let range = bodyWeightKilograms
        return "from \(range.lowerBound) to \(range.upperBound) kg (\(pounds(range.lowerBound)) to "
            + "\(pounds(range.upperBound)) lb)"
    }

    /// Records profile changes (fields given with the value the profile holds are not recorded again), and a
    /// body-weight entry if one is given, taken `at` an instant before now if given (then with nothing else). Returns
    /// whether anything was recorded.
    @discardableResult
    public func updateProfile(
        _ update: ProfileUpdated, bodyWeight: Weight? = nil, at taken: Timestamp? = nil
    ) async throws -> Bool {
        if taken != nil, bodyWeight == nil || update != ProfileUpdated() {
            throw TrainingError(
                .invalidValue, "a time is given to a body weight alone", remedy: "record the other changes apart")
        }
        try Self.requireText(update.name, "a profile's name")
        if let zone = update.timeZone { _ = try TimeZone.named(zone) }
        if let age = update.age, !(5...120).contains(age) {
            throw TrainingError(.invalidValue, "an age of \(age)", remedy: "give an age from 5 to 120")
        }
        if let height = update.heightCentimeters, height < ExactDecimal(50) || ExactDecimal(272) < height {
            throw TrainingError(.invalidValue, "a height of \(height) cm", remedy: "give a height from 50 to 272 cm")
        }
        if let bodyWeight, !Self.bodyWeightKilograms.contains(bodyWeight.kilograms) {
            throw TrainingError(
                .invalidValue, "a body weight of \(bodyWeight)", remedy: "give a body weight \(Self.bodyWeightRange)")
        }
        return try await execute { snapshot, now in
            if let taken {
                let zone = snapshot.rules.timeZone
                guard taken <= now else {
                    throw TrainingError(
                        .invalidValue, "a body weight taken at \(taken.localText(in: zone)), which is still to come",
                        remedy: "give a time before now, or leave --at out")
                }
                // As for a workout's date: the calendar before 2000 is none the log's days are counted in.
                guard WorkoutContribution.earliestPlausibleDay <= LocalDate.dayNumber(of: taken, in: zone) else {
                    throw TrainingError(
                        .invalidValue, "a body weight taken at \(taken.localText(in: zone)), before 2000",
                        remedy: "give a time from 2000-01-01 on")
                }
            }
            let current = try snapshot.profileFields()
            var changed = update
            func leaveOutUnchanged<Value: Equatable>(_ field: WritableKeyPath<ProfileUpdated, Value?>) {
                if changed[keyPath: field] == current[keyPath: field] { changed[keyPath: field] = nil }
            }
            leaveOutUnchanged(\.name)
            leaveOutUnchanged(\.age)
            leaveOutUnchanged(\.heightCentimeters)
            leaveOutUnchanged(\.unit)
            leaveOutUnchanged(\.timeZone)
            var events: [any TrainingEventPayload] = []
            if changed != ProfileUpdated() { events.append(changed) }
            // The same reading at the same instant again (a command run twice) is one reading, not two.
            let isRecorded =
                try taken.map { taken in
                    try snapshot.profile().bodyWeights.contains { $0.at == taken && $0.weight == bodyWeight }
                } ?? false
            if let bodyWeight, !isRecorded { events.append(BodyWeightRecorded(weight: bodyWeight)) }
            return Decision(
                stream: "profile", expectedVersion: try snapshot.expectedVersion(of: "profile"), events: events,
                result: !events.isEmpty, occurredAt: taken)
        }
    }

    /// Adds a custom exercise to the catalog; returns it.
    @discardableResult
    public func addCustomExercise(_ proposal: CustomExerciseAdded) async throws -> Exercise {
        let name = proposal.name.trimmingCharacters(in: .whitespaces)
        guard !ExerciseCatalog.key(name).isEmpty else {
            throw TrainingError(
                .invalidValue, "an exercise needs a name", remedy: "give one, such as \"Sled Drag Backward\"")
        }
        try Self.requireOneLine(name, "an exercise's name")
        guard Exercise.fitsName(name) else {
            throw TrainingError(
                .invalidValue, "an exercise's name is at most \(Exercise.maximumNameLength) characters",
                remedy: "give a shorter name")
        }
        let proposal = try Self.checkedFacts(proposal)
        return try await execute { snapshot, _ in
            let catalog = try snapshot.catalog()
            if let existing = catalog.lookup(name) {
                throw TrainingError(
                    .notAllowed, "\"\(name)\" is already in the catalog as \"\(existing.name)\" (\(existing.id))",
                    remedy: existing.isCustom
                        ? "change its facts with liftledger exercise edit \(Shell.word(existing.name)) --primary MUSCLES, "
                            + "or pick another name"
                        : "use it as it is, or pick another name")
            }
            var added = proposal
            added.name = name
            added.exerciseId = "custom-" + ExerciseCatalog.key(name).replacingOccurrences(of: " ", with: "-")
            return Decision(
                stream: "catalog", expectedVersion: try snapshot.expectedVersion(of: "catalog"), events: [added],
                result: added.exercise)
        }
    }

    /// Changes the muscles, equipment, force or mechanic of a custom exercise, those of `change` that are not nil (an
    /// empty secondary list, or an empty text, clears that field); every workout of it counts again with them, whenever
    /// it was done. Returns the exercise as it stands after, and whether anything changed (when nothing does, nothing
    /// is written).
    public func editCustomExercise(
        _ name: String, _ change: CustomExerciseChange
    ) async throws -> (exercise: Exercise, changed: Bool) {
        try await execute { snapshot, _ in
            let exercise = try self.exercise(name, in: snapshot)
            guard exercise.isCustom else {
                throw TrainingError(
                    .notAllowed, "\(exercise.name) (\(exercise.id)) is the catalog's, and keeps its facts",
                    remedy: "add a custom exercise with liftledger exercise add NAME --primary MUSCLES")
            }
            let before = CustomExerciseAdded(
                exerciseId: exercise.id, name: exercise.name, primaryMuscles: exercise.primaryMuscles,
                secondaryMuscles: exercise.secondaryMuscles, equipment: exercise.equipment, force: exercise.force,
                mechanic: exercise.mechanic, category: exercise.category)
            var after = before
            func given(_ text: String?) -> String?? { text.map { $0.isEmpty ? String?.none : $0 } }
            if let primary = change.primaryMuscles { after.primaryMuscles = primary }
            if let secondary = change.secondaryMuscles { after.secondaryMuscles = secondary }
            if let equipment = given(change.equipment) { after.equipment = equipment }
            if let force = given(change.force) { after.force = force }
            if let mechanic = given(change.mechanic) { after.mechanic = mechanic }
            after = try Self.checkedFacts(after)
            let events: [any TrainingEventPayload] = after == before ? [] : [after]
            return Decision(
                stream: "catalog", expectedVersion: try snapshot.expectedVersion(of: "catalog"), events: events,
                result: (after.exercise, !events.isEmpty))
        }
    }

    /// `proposal` with each muscle once (a primary one not again as secondary), and the force, the mechanic and the
    /// equipment in lower case, as free-exercise-db writes them (no equipment rather than an empty one); refused when a
    /// muscle, force, mechanic or equipment is not one free-exercise-db has, or no primary muscle is given.
    private static func checkedFacts(_ proposal: CustomExerciseAdded) throws -> CustomExerciseAdded {
        var proposal = proposal
        var seen: Set<String> = []
        proposal.primaryMuscles = proposal.primaryMuscles.filter { seen.insert($0).inserted }
        proposal.secondaryMuscles = proposal.secondaryMuscles.filter { seen.insert($0).inserted }
        proposal.force = proposal.force?.lowercased()
        proposal.mechanic = proposal.mechanic?.lowercased()
        proposal.equipment = proposal.equipment?.trimmingCharacters(in: .whitespaces).lowercased()
        if proposal.equipment?.isEmpty == true { proposal.equipment = nil }
        let unknown = (proposal.primaryMuscles + proposal.secondaryMuscles).filter {
            !ExerciseCatalog.muscleNames.contains($0)
        }
        guard unknown.isEmpty, !proposal.primaryMuscles.isEmpty else {
            // The option the first unknown muscle came with (a missing primary muscle is --primary's).
            let option =
                unknown.first.map { proposal.primaryMuscles.contains($0) } == false ? "--secondary" : "--primary"
            throw TrainingError(
                .invalidValue,
                unknown.isEmpty ? "an exercise needs a primary muscle" : "unknown muscle \"\(unknown[0])\"",
                remedy:
                    "use \(option) with one or more of: \(ExerciseCatalog.muscleNames.sorted().joined(separator: ", "))"
            )
        }
        // The values free-exercise-db gives: balance reads the force for its push/pull split, and a misspelt equipment
        // (`barbel`) would stand apart from the catalog's.
        for (field, value, values) in [
            ("force", proposal.force, ["push", "pull", "static"]),
            ("mechanic", proposal.mechanic, ["compound", "isolation"]),
            ("equipment", proposal.equipment, ExerciseCatalog.equipmentNames),
        ] {
            guard let value, !values.contains(value) else { continue }
            throw TrainingError(
                .invalidValue, "unknown \(field) \(value.debugDescription)",
                remedy: "give \(values.dropLast().joined(separator: ", ")) or \(values.last!)")
        }
        return proposal
    }

    /// The id of a routine named `name`, and the routine when `snapshot` has it, when a routine can have that name:
    /// one line, with a letter or a digit, not `rest` (which a schedule reads as a rest day), and, for a routine not
    /// in `snapshot` yet, of at most ``Exercise/maximumNameLength`` characters, without a comma and not beginning
    /// with `-`.
    static func routine(named name: String, in snapshot: TrainingSnapshot) throws -> (id: String, routine: Routine?) {
        try requireOneLine(name, "a routine's name")
        let id = Routine.id(forName: name)
        guard !id.isEmpty else {
            throw TrainingError(
                .invalidValue, "a routine needs a name with a letter or a digit",
                remedy: "give one, such as Push")
        }
        // A schedule names a rest day so: such a routine could never be due.
        guard id != "rest" else {
            throw TrainingError(
                .invalidValue, "a routine cannot be named \(name.debugDescription)",
                remedy: "a schedule reads rest as a rest day; give the routine another name")
        }
        // Checked for a new routine only: older versions took such names, and their routines stay usable.
        if let routine = try snapshot.routine(named: name) { return (routine.id, routine) }
        guard Exercise.fitsName(name) else {
            throw TrainingError(
                .invalidValue, "a routine's name is at most \(Exercise.maximumNameLength) characters",
                remedy: "give a shorter name")
        }
        // A schedule lists routines between commas, and a command line reads a word that begins with - as an option.
        guard !name.contains(","), !name.trimmingCharacters(in: .whitespaces).hasPrefix("-") else {
            throw TrainingError(
                .invalidValue, "a routine's name cannot hold a comma or begin with -: \(name.debugDescription)",
                remedy: "give another name, such as Legs")
        }
        return (id, nil)
    }

    /// Adds an exercise to the end of a routine, creating the routine if it does not exist; returns the routine's
    /// name, as it was first given, the exercise's, and whether this made the routine.
    @discardableResult
    public func addToRoutine(
        _ routineName: String, exercise name: String, sets: UInt32, reps: ClosedRange<UInt32>, restSeconds: UInt32
    ) async throws -> (routine: String, exercise: String, created: Bool) {
        try Self.checkTargets(sets: sets, reps: reps, restSeconds: restSeconds)
        return try await execute { snapshot, _ in
            let (id, routine) = try Self.routine(named: routineName, in: snapshot)
            let exercise = try exercise(name, in: snapshot)
            var events: [any TrainingEventPayload] = []
            // Blanks around the name are no part of it (`"  Legs  "` is Legs).
            let newName = routineName.trimmingCharacters(in: .whitespaces)
            if routine == nil { events.append(RoutineCreated(routineId: id, name: newName)) }
            if routine?.exercises.contains(where: { $0.exerciseId == exercise.id }) == true {
                throw TrainingError(
                    .notAllowed, "\(exercise.name) is already in \(routine!.name)",
                    remedy: "change its targets with liftledger routine edit, or move it with liftledger routine move")
            }
            events.append(
                RoutineExerciseAdded(
                    exerciseId: exercise.id, exerciseName: exercise.name, targetSets: sets,
                    minimumReps: reps.lowerBound, maximumReps: reps.upperBound, restSeconds: restSeconds))
            return Decision(
                stream: Routine.streamID(id), expectedVersion: try snapshot.expectedVersion(of: Routine.streamID(id)),
                events: events,
                result: (routine?.name ?? newName, exercise.name, routine == nil))
        }
    }

    /// Changes the targets of an exercise in a routine, keeping its place and the targets not given. Returns the
    /// routine's name and whether anything changed (targets as they are already write nothing).
    @discardableResult
    public func editRoutineExercise(
        _ routineName: String, exercise name: String, sets: UInt32? = nil, reps: ClosedRange<UInt32>? = nil,
        restSeconds: UInt32? = nil
    ) async throws -> (routine: String, changed: Bool) {
        try await execute { snapshot, _ in
            let (routine, exerciseId) = try routineExercise(routineName, name, in: snapshot)
            let index = routine.exercises.firstIndex { $0.exerciseId == exerciseId }!
            let current = routine.exercises[index]
            var edited = current
            edited.targetSets = sets ?? current.targetSets
            edited.minimumReps = reps?.lowerBound ?? current.minimumReps
            edited.maximumReps = reps?.upperBound ?? current.maximumReps
            edited.restSeconds = restSeconds ?? current.restSeconds
            try Self.checkTargets(
                sets: edited.targetSets, reps: edited.minimumReps...edited.maximumReps, restSeconds: edited.restSeconds)
            guard edited != current else {
                return Decision(
                    stream: Routine.streamID(routine.id),
                    expectedVersion: try snapshot.expectedVersion(of: Routine.streamID(routine.id)), events: [],
                    result: (routine.name, false))
            }
            // Added again, an exercise goes to the end: moved back to its place, in the same append.
            var events: [any TrainingEventPayload] = [edited]
            if index != routine.exercises.count - 1 {
                events.append(RoutineExerciseMoved(exerciseId: exerciseId, toIndex: UInt32(index)))
            }
            return Decision(
                stream: Routine.streamID(routine.id),
                expectedVersion: try snapshot.expectedVersion(of: Routine.streamID(routine.id)), events: events,
                result: (routine.name, true))
        }
    }

    /// Refuses targets a routine does not take: 1 to 20 sets, reps from 1 to 100, 1 to 3600 s of rest.
    private static func checkTargets(sets: UInt32, reps: ClosedRange<UInt32>, restSeconds: UInt32) throws {
        guard (1...20).contains(sets), reps.lowerBound >= 1, reps.upperBound <= 100, (1...3_600).contains(restSeconds)
        else {
            throw TrainingError(
                .invalidValue,
                "targets of \(sets) sets of "
                    + (reps.count == 1 ? "\(reps.lowerBound)" : "\(reps.lowerBound)-\(reps.upperBound)")
                    + " reps, \(restSeconds) s rest",
                remedy: "give 1 to 20 sets, reps from 1 to 100 (such as 8-12) and 1 to 3600 s of rest")
        }
    }

    /// Removes an exercise from a routine; returns the routine's name and how many exercises it has left. A routine
    /// left with none is gone, as ``deleteRoutine(_:)`` leaves one.
    @discardableResult
    public func removeFromRoutine(
        _ routineName: String, exercise name: String
    ) async throws -> (routine: String, exercisesLeft: Int) {
        try await execute { snapshot, _ in
            let (routine, exerciseId) = try routineExercise(routineName, name, in: snapshot)
            return Decision(
                stream: Routine.streamID(routine.id),
                expectedVersion: try snapshot.expectedVersion(of: Routine.streamID(routine.id)),
                events: [RoutineExerciseRemoved(exerciseId: exerciseId)],
                result: (routine.name, routine.exercises.count - 1))
        }
    }

    /// Deletes a routine: takes every exercise out of it, so that it is listed, scheduled and started from no more.
    /// Past workouts keep its id, and `routine add` makes it again. Returns its name and how many exercises it had.
    @discardableResult
    public func deleteRoutine(_ routineName: String) async throws -> (routine: String, exercises: Int) {
        try await execute { snapshot, _ in
            guard let routine = try snapshot.routine(named: routineName) else {
                throw TrainingError(
                    .notFound, "no routine \(routineName.debugDescription)",
                    remedy: "see them with liftledger routine show")
            }
            return Decision(
                stream: Routine.streamID(routine.id),
                expectedVersion: try snapshot.expectedVersion(of: Routine.streamID(routine.id)),
                events: routine.exercises.map { RoutineExerciseRemoved(exerciseId: $0.exerciseId) },
                result: (routine.name, routine.exercises.count))
        }
    }

    /// Moves an exercise of a routine to `position` (1 is first); returns the routine's name, and whether it moved (one
    /// already in that place writes nothing).
    @discardableResult
    public func moveInRoutine(
        _ routineName: String, exercise name: String, to position: Int
    ) async throws -> (routine: String, moved: Bool) {
        try await execute { snapshot, _ in
            let (routine, exerciseId) = try routineExercise(routineName, name, in: snapshot)
            guard (1...routine.exercises.count).contains(position) else {
                throw TrainingError(
                    .invalidValue, "position \(position) in a routine of \(routine.exercises.count) exercises",
                    remedy: "give a position from 1 to \(routine.exercises.count)")
            }
            // One already in that place: nothing to record.
            let moved = routine.exercises[position - 1].exerciseId != exerciseId
            return Decision(
                stream: Routine.streamID(routine.id),
                expectedVersion: try snapshot.expectedVersion(of: Routine.streamID(routine.id)),
                events: moved ? [RoutineExerciseMoved(exerciseId: exerciseId, toIndex: UInt32(position - 1))] : [],
                result: (routine.name, moved))
        }
    }

    private func routineExercise(
        _ routineName: String, _ name: String, in snapshot: TrainingSnapshot
    ) throws -> (
        Routine, String
    ) {
        guard let routine = try snapshot.routine(named: routineName) else {
            throw TrainingError(
                .notFound, "no routine \"\(routineName)\"", remedy: "see them with liftledger routine show")
        }
        let exercise = try exercise(name, in: snapshot)
        guard routine.exercises.contains(where: { $0.exerciseId == exercise.id }) else {
            throw TrainingError(
                .notFound, "\(exercise.name) is not in \(routine.name)", remedy: "see it with liftledger routine show")
        }
        return (routine, exercise.id)
    }

    /// Replaces the schedule. Each day names a routine by a name a routine can have, whether or not it exists yet, or
    /// by a name the schedule in force has. Returns false, having written nothing, when the schedule in force is this
    /// one already.
    @discardableResult
    public func setSchedule(_ schedule: Schedule) async throws -> Bool {
        try await execute { snapshot, _ in
            let inForce = try snapshot.schedule()
            // The names the schedule in force has already stand, as an older version took them.
            let current = Set(inForce.event.days)
            for name in schedule.event.days where !name.isEmpty && !current.contains(name) {
                _ = try Self.routine(named: name, in: snapshot)
            }
            let isChange = !inForce.isRecorded || inForce.plan != schedule.plan
            return Decision(
                stream: "schedule", expectedVersion: try snapshot.expectedVersion(of: "schedule"),
                events: isChange ? [schedule.event] : [], result: isChange)
        }
    }
}

extension TrainingLog {
    /// The rule `key` with `value` checked and written the way the rules write it (`0.50` becomes `0.5`), the rules
    /// as they would then stand, and whether that changes the rule.
    public func proposeRule(_ key: String, _ value: String) throws -> (value: String, rules: Rules, isChange: Bool) {
        guard let rule = Rules.key(key) else {
            throw TrainingError(
                .notFound, "no rule \(key.debugDescription)",
                remedy: key.lowercased() == Rules.timeZoneKey
                    ? "the time zone is the profile's: liftledger profile set --time-zone ZONE"
                    : "the rules are: \(Rules.keys.map(\.name).joined(separator: ", "))")
        }
        var rules = try readModels.currentRules()
        let current = rule.value(in: rules)
        guard rules.set(key, to: value.lowercased()) else {
            throw TrainingError(.invalidValue, "\(value.debugDescription) for \(key)", remedy: "give \(rule.accepts)")
        }
        let proposed = rule.value(in: rules)
        return (proposed, rules, proposed != current)
    }

    /// Records that rule `key` has `value` from now on, unless it has it already (then nothing is written); returns
    /// the rules then in force. The read models built under other rules are rebuilt by the next catch-up.
    @discardableResult
    public func changeRule(_ key: String, to value: String) async throws -> Rules {
        let (canonical, rules, isChange) = try proposeRule(key, value)
        guard isChange else { return rules }
        try await execute { snapshot, _ in
            Decision(
                stream: "rules", expectedVersion: try snapshot.expectedVersion(of: "rules"),
                events: [RulesChanged(key: key, value: canonical)], result: ())
        }
        return rules
    }
}
