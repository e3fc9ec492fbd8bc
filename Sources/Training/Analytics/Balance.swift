/// Sets and volume per muscle over some weeks, the push/pull and upper/lower ratios, and the muscles far below the
/// others, from the `weeks` counters (weighed by the balance rules; docs/RULES.md).
public struct MuscleBalance: Sendable {
    /// One muscle's share of the weeks.
    public struct Muscle: Sendable, Equatable {
        public let name: String
        /// Weighed working sets, per week in `weeks` order.
        public let weeklySets: [Double]
        public let sets: Double
        /// Weighed volume in whole milligrams, rounded half to even from the weeks' exact counters.
        public let volumeMilligrams: Int64
        /// Trained, but below the rule's fraction of the median trained muscle's sets.
        public let isFlagged: Bool
    }

    /// Week starts, oldest first.
    public let weeks: [LocalDate]
    /// The 17 muscles of the catalog, most sets first.
    public let muscles: [Muscle]
    public let pushSets: Double
    public let pullSets: Double
    public let upperSets: Double
    public let lowerSets: Double
    /// The median sets of the muscles trained in these weeks: what flags compare with.
    public let medianSets: Double

    /// Muscles of the upper body; the lower body's are `lowerMuscles`; abdominals and lower back are neither.
    public static let upperMuscles: Set<String> = [
        "chest", "shoulders", "triceps", "biceps", "forearms", "lats", "middle back", "traps", "neck",
    ]
    public static let lowerMuscles: Set<String> = [
        "quadriceps", "hamstrings", "glutes", "calves", "adductors", "abductors",
    ]

    /// Push sets per pull set; nil without pull sets.
    public var pushPullRatio: Double? { pullSets > 0 ? pushSets / pullSets : nil }
    /// Upper-body sets per lower-body set; nil without lower-body sets.
    public var upperLowerRatio: Double? { lowerSets > 0 ? upperSets / lowerSets : nil }

    init(weeks: [LocalDate], counters: [Int: [String: WeekCounter]], rules: Rules) {
        self.weeks = weeks
        func sets(_ counter: WeekCounter?) -> Double { Double(counter?.milliSets ?? 0) / 1_000 }
        var muscles: [(name: String, weekly: [Double], volume: Int64)] = []
        for name in ExerciseCatalog.muscleNames {
            let weekly = weeks.map { week in sets(counters[week.dayNumber]?[name]) }
            // Counters hold milligrams × 1,000 × the role's weight in thousandths: added up exactly, rounded once.
            let milliVolume = weeks.reduce(Int64(0)) { total, week in
                total.addingClamped(counters[week.dayNumber]?[name]?.milliVolume ?? 0)
            }
            let volume = ExactDecimal(significand: milliVolume, scale: 3)!.scaled(toDigits: 0) ?? .max
            muscles.append((name, weekly, volume))
        }
        let trained = muscles.map { $0.weekly.reduce(0, +) }.filter { $0 > 0 }.sorted()
        let median =
            trained.isEmpty
            ? 0
            : trained.count % 2 == 1
                ? trained[trained.count / 2] : (trained[trained.count / 2 - 1] + trained[trained.count / 2]) / 2
        let threshold = median * rules.flagBelowFraction.doubleValue
        self.muscles = muscles.map { muscle in
            let total = muscle.weekly.reduce(0, +)
            return Muscle(
                name: muscle.name, weeklySets: muscle.weekly, sets: total, volumeMilligrams: muscle.volume,
                isFlagged: total > 0 && total < threshold)
        }.sorted { ($1.sets, $0.name) < ($0.sets, $1.name) }
        medianSets = median
        func total(_ key: String) -> Double { weeks.reduce(0) { $0 + sets(counters[$1.dayNumber]?[key]) } }
        pushSets = total("*push")
        pullSets = total("*pull")
        upperSets = self.muscles.filter { Self.upperMuscles.contains($0.name) }.reduce(0) { $0 + $1.sets }
        lowerSets = self.muscles.filter { Self.lowerMuscles.contains($0.name) }.reduce(0) { $0 + $1.sets }
    }
}

/// An exercise's working sets that no muscle counts, as its exercise has none: a custom exercise an import made (Hevy's
/// custom exercises, FitNotes' names in its "Body" and "Cardio" categories), or one the catalog does not know.
public struct SetsWithoutMuscles: Sendable, Equatable {
    public let exerciseId: String
    public let name: String
    /// Working sets that are not excluded, as balance counts a set.
    public let sets: Int
}

extension TrainingSnapshot {
    /// The working sets of the `weeks` weeks up to and including the one `today` is in whose exercise has no muscles,
    /// by exercise, most first: what ``balance(weeks:today:)`` leaves out.
    public func setsWithoutMuscles(weeks count: Int, today: LocalDate) throws -> [SetsWithoutMuscles] {
        let weeks = balanceWeeks(count, today: today)
        let days = weeks.first!.dayNumber...(weeks.last!.dayNumber + 6)
        let catalog = try catalog()
        var found: [SetsWithoutMuscles] = []
        for id in try exercisesTrained() {
            let exercise = catalog.exercise(id: id)
            guard exercise.map({ $0.primaryMuscles.isEmpty && $0.secondaryMuscles.isEmpty }) ?? true else { continue }
            let sets = try sessions(of: id).filter {
                days.contains(LocalDate.dayNumber(of: $0.startedAt, in: rules.timeZone))
            }.reduce(0) { $0 + Int($1.workingSets) }
            if sets > 0 { found.append(SetsWithoutMuscles(exerciseId: id, name: exercise?.name ?? id, sets: sets)) }
        }
        return found.sorted { ($1.sets, $0.name) < ($0.sets, $1.name) }
    }

    /// The balance of the `weeks` weeks up to and including the one `today` is in.
    public func balance(weeks count: Int, today: LocalDate) throws -> MuscleBalance {
        let weeks = balanceWeeks(count, today: today)
        return MuscleBalance(
            weeks: weeks, counters: try weekCounters(from: weeks.first?.dayNumber), rules: rules)
    }

    /// The starts of the `count` weeks (at least 1) up to and including the one `today` is in, oldest first.
    func balanceWeeks(_ count: Int, today: LocalDate) -> [LocalDate] {
        let last = today.weekStart(rules.weekStart)
        return (0..<max(1, count)).reversed().map { LocalDate(dayNumber: last.dayNumber - 7 * $0) }
    }
}
