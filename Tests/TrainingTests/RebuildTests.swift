import EventJournal
import Foundation
import Testing
import Training

/// A rebuild of the training read models that a rule change overtakes.
struct RebuildTests {
    /// A rebuild under the rules read as it began, taken over by a rebuild under rules changed meanwhile: it said it had
    /// rebuilt the read model, and then caught up under the old rules, which rebuilt it under them again. It now names
    /// it as not rebuilt by this call, and leaves the read model built under the rules in force.
    @Test func aRebuildTakenOverUnderRulesChangedMeanwhileSaysSoAndLeavesThem() async throws {
        let test = try TestJournal()
        let log = try TrainingLog(journal: test.journal)
        // 5,000 records no projection reads: the rebuild's first chunk, of 4,096 positions, ends short of the head.
        _ = try await test.journal.append(
            (0..<5_000).map { _ in ProposedEvent(type: "Note", encoding: .opaque, payload: []) }, to: "notes")
        let models = log.readModels
        try models.catchUp()
        let takenOver = try await withCheckedThrowingContinuation {
            (continuation: CheckedContinuation<[String], Error>) in
            // On a thread of its own: the rule change (async) is waited for inside the rebuild's progress.
            Thread {
                var changed = false
                continuation.resume(
                    with: Result {
                        try models.rebuild("training") { _, position, _ in
                            guard !changed, position < 5_000 else { return }
                            changed = true
                            let done = DispatchSemaphore(value: 0)
                            Task.detached {
                                _ = try? await log.changeRule("e1rm.formula", to: "brzycki")
                                done.signal()
                            }
                            done.wait()
                            // Another rebuild, under the new rules, takes this one over and swaps its read model in.
                            #expect(throws: Never.self) { try models.rebuild("training") }
                        }
                    })
            }.start()
        }
        #expect(takenOver == ["training"])
        let status = try #require(try models.status().first { $0.name == "training" })
        #expect(status.isCurrent && status.lag == 0 && !status.isRebuilding)
        #expect(try models.query { $0.rules.estimateFormula } == .brzycki)
    }
}
