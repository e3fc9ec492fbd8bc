import ArgumentParser
import EventJournal
import Foundation
import Interchange
import Projections
import Training

/// Feeds the importer mutated versions of real and synthetic exports: bytes flipped, inserted and cut, lines
/// dropped, doubled and swapped, fields replaced by hostile values. None may crash or hang the importer; each must
/// import, or be refused with a clear error (a message and a remedy) that leaves the journal's head where it was.
struct FuzzImport: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fuzz-import",
        abstract: "Import mutated exports; every outcome must be an import or a clear refusal.")

    @Option(help: "How many mutants.")
    var iterations = 10_000

    @Option(help: "The seed.")
    var seed: UInt64 = 1

    @Option(help: "The files to mutate (their first 60 lines are used).")
    var files: [String]

    @Option(help: "The longest one import may take, in seconds, before it counts as a hang.")
    var budget: Double = 10

    func run() async throws {
        let scratch = ScratchDirectory(given: nil, prefix: "liftledger-fuzz")
        defer { withExtendedLifetime(scratch) {} }
        try FileManager.default.createDirectory(atPath: scratch.path, withIntermediateDirectories: true)
        let seeds = try files.map { path -> [UInt8] in
            let text = try String(contentsOfFile: path, encoding: .utf8)
            return Array(
                text.split(separator: "\n", omittingEmptySubsequences: false).prefix(60).joined(separator: "\n").utf8)
        }
        var random = SplitMix64(seed: seed)
        var outcomes: [String: Int] = [:]
        var failures: [String] = []
        var slowest = 0.0
        let file = scratch.path + "/mutant.csv"
        var journal: Journal!
        var importer: Importer!
        for iteration in 0..<iterations {
            // A fresh journal now and then keeps each import as small as the mutant.
            if iteration % 100 == 0 {
                journal = try Journal.open(
                    at: scratch.path + "/journal-\(iteration)", options: JournalOptions(durability: .relaxed),
                    create: true)
                importer = Importer(log: try TrainingLog(journal: journal))
            }
            let mutant = Mutator.mutate(seeds[random.below(seeds.count)], &random)
            try Data(mutant).write(to: URL(fileURLWithPath: file))
            let units: [MassUnit?] = [nil, .kilograms, .pounds]
            let options = ImportOptions(unit: units[random.below(3)])
            let head = try journal.head()
            let started = ContinuousClock.now
            do {
                _ = try await importer.importFile(at: file, options: options)
                outcomes["imported", default: 0] += 1
            } catch let error as ImportError {
                outcomes["refused: \(error.code)", default: 0] += 1
                if error.message.isEmpty || error.remedy.isEmpty { failures.append("\(iteration): an unclear error") }
                if try journal.head() != head { failures.append("\(iteration): refused, yet the head moved") }
            } catch {
                failures.append("\(iteration): an unexpected error: \(error)")
            }
            let seconds = JournalBench.seconds(ContinuousClock.now - started)
            slowest = max(slowest, seconds)
            if seconds > budget { failures.append("\(iteration): \(seconds) s, a hang") }
            if failures.count > 20 { break }
        }
        let counts = outcomes.sorted { $0.key < $1.key }.map { #""\#($0.key)":\#($0.value)"# }.joined(separator: ",")
        writeLine(
            #"{"mutants":\#(iterations),"seed":\#(seed),"outcomes":{\#(counts)},"slowestSeconds":"#
                + #"\#((slowest * 1_000).rounded() / 1_000),"failures":\#(failures.count)}"#)
        for failure in failures { writeLine(failure) }
        if !failures.isEmpty { throw ExitCode.failure }
    }
}

/// Ways to break an export the way disks, editors and people do.
enum Mutator {
    static let hostile = [
        "", "-1", "nan", "inf", "1e9", "99999999999999999999", "0.000000001", "10.5", "W", "Rest Timer", "Ruhezeit",
        "\"", "\"\"", ";", ",", "\n", "\r\n", "ü", "\u{0}", "2026-02-30 10:00:00", "9 Foo 2026, 17:18", "1h 99m",
        "1小时", "lbs", "stone", "-0", "0x10", "１２", "1,5", "99:99:99", String(repeating: "9", count: 300),
    ]

    static func mutate(_ seed: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        for _ in 0..<(1 + random.below(3)) {
            guard !bytes.isEmpty else { return Array(hostile[random.below(hostile.count)].utf8) }
            let at = random.below(bytes.count)
            switch random.below(9) {
            case 0: bytes[at] ^= UInt8(1 << random.below(8))
            case 1: bytes.insert(UInt8(truncatingIfNeeded: random.next()), at: at)
            case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.below(40)))
            case 3: bytes = Array(bytes.prefix(at))
            case 4, 5: bytes = replacingField(bytes, at: at, with: hostile[random.below(hostile.count)])
            default: bytes = shufflingLines(bytes, &random)
            }
        }
        return bytes
    }

    /// Replaces the field around `at` (between separators) with `text`.
    private static func replacingField(_ bytes: [UInt8], at: Int, with text: String) -> [UInt8] {
        let separators: Set<UInt8> = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\n")]
        var start = at
        while start > 0, !separators.contains(bytes[start - 1]) { start -= 1 }
        var end = at
        while end < bytes.count, !separators.contains(bytes[end]) { end += 1 }
        return Array(bytes[..<start]) + Array(text.utf8) + Array(bytes[end...])
    }

    /// Drops, doubles or swaps whole lines.
    private static func shufflingLines(_ bytes: [UInt8], _ random: inout SplitMix64) -> [UInt8] {
        var lines = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
        guard lines.count > 1 else { return bytes }
        let first = random.below(lines.count)
        let second = random.below(lines.count)
        switch random.below(3) {
        case 0: lines.remove(at: first)
        case 1: lines.insert(lines[first], at: second)
        default: lines.swapAt(first, second)
        }
        return Array(lines.joined(separator: [UInt8(ascii: "\n")]))
    }
}
