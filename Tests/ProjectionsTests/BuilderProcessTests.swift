import EventJournal
import Foundation
import TestSupport
import Testing

@testable import Projections

/// A rebuild's marker names its builder by process id, boot and start, so that a later process given the same id is
/// not taken for it. Expected values are written out by hand in each test.
struct BuilderProcessTests {
    let checkpoint = Checkpoint(position: 7, version: 3, rulesDigest: [1, 2, 3], slot: 1)

    @Test func aMarkerReadsBackWithItsBuilderAndWithoutItsStart() throws {
        let builder = BuilderProcess(
            processID: 1_234, start: .init(bootID: Array(0..<16), ticksAfterBoot: 99))
        let marker = RebuildMarker(checkpoint: checkpoint, builder: builder)
        // 16 + 3 bytes of checkpoint, 4 of process id, 16 of boot id, 8 of ticks.
        #expect(marker.encoded.count == 47)
        #expect(marker.encoded.withUnsafeBytes(RebuildMarker.init(decoding:)) == marker)
        // A marker written before the start was kept: the checkpoint and the process id alone.
        let idOnly = checkpoint.encoded + [0, 0, 0x04, 0xD2]
        let read = try #require(idOnly.withUnsafeBytes(RebuildMarker.init(decoding:)))
        #expect(read.checkpoint == checkpoint && read.builder == BuilderProcess(processID: 1_234, start: nil))
        #expect(marker.encoded.dropLast().withUnsafeBytes(RebuildMarker.init(decoding:)) == nil)
    }

    @Test func theStartIsReadPastACommandNameWithSpacesAndParentheses() {
        // Fields 3 to 21 are the state and 18 numbers; field 22, the start, is 4242.
        let stat = "12 (a b) c) S " + (1...18).map(String.init).joined(separator: " ") + " 4242 999 5"
        #expect(BuilderProcess.ticksAfterBoot(stat: stat) == 4_242)
        #expect(BuilderProcess.ticksAfterBoot(stat: "12 (short) S 1 2") == nil)
        #expect(BuilderProcess.hasEnded(stat: "12 (a) Z) Z 1") && BuilderProcess.hasEnded(stat: "12 (b) X 1"))
        #expect(!BuilderProcess.hasEnded(stat: "12 (a Z) S 1") && !BuilderProcess.hasEnded(stat: "12 (a) D 1"))
    }

    @Test func aLiveProcessIsTheBuilderOnlyWithTheStartItHad() throws {
        let sleeper = try ProgramHandle("/bin/sleep", ["60"])
        let processID = sleeper.processIdentifier
        let start = try #require(BuilderProcess.startOfProcess(processID))
        #expect(BuilderProcess(processID: processID, start: start).isAlive)
        #expect(BuilderProcess(processID: processID, start: nil).isAlive, "a marker without its start: by id alone")
        var later = start
        later.ticksAfterBoot += 1
        #expect(!BuilderProcess(processID: processID, start: later).isAlive, "the id reused by a later process")
        var otherBoot = start
        otherBoot.bootID[0] ^= 0xFF
        #expect(!BuilderProcess(processID: processID, start: otherBoot).isAlive, "the id reused after a reboot")
        #expect(BuilderProcess.current().isAlive)
        kill(processID, SIGKILL)
        _ = sleeper.wait()
        #expect(!BuilderProcess(processID: processID, start: start).isAlive)
    }

    /// A builder killed but not yet waited for by its parent (whose parent was killed with it, say, as `timeout -s KILL`
    /// kills itself) keeps its id and start until it is reaped: `projections` called its rebuild under way meanwhile.
    @Test func aKilledProcessNotYetWaitedForIsNotTheBuilder() throws {
        var processID: pid_t = 0
        let words = ["/bin/sleep", "60"]
        let arguments = words.map { strdup($0) } + [nil]
        defer { arguments.forEach { free($0) } }
        #expect(posix_spawn(&processID, "/bin/sleep", nil, nil, arguments, environ) == 0)
        let start = try #require(BuilderProcess.startOfProcess(processID))
        kill(processID, SIGKILL)
        // The state, the field after the name in parentheses, reads `Z` once the process has died and until it is
        // waited for.
        func state() -> Substring? {
            let stat = try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8)
            return stat?.split(separator: ")").last?.split(separator: " ").first
        }
        let deadline = ContinuousClock.now + .seconds(20)
        while state() != "Z" && ContinuousClock.now < deadline { usleep(1_000) }
        #expect(state() == "Z" && kill(processID, 0) == 0)
        #expect(!BuilderProcess(processID: processID, start: start).isAlive)
        var status: Int32 = 0
        #expect(waitpid(processID, &status, 0) == processID)
    }

    /// A rebuild under other rules, whose marker names a live process: left to that process. The same marker naming
    /// the process's id with another start (a builder that died, its id given to a later process): taken over.
    @Test func aRebuildLeftByAProcessWhoseIDWasReusedIsTakenOver() async throws {
        let directory = try TemporaryDirectory()
        let journal = try Journal.open(
            at: directory.child("journal"), options: JournalOptions(durability: .relaxed), create: true)
        for index in 0..<6 {
            _ = try await journal.append(
                [ProposedEvent(type: "T", encoding: .opaque, payload: [])], to: "s\(index % 3)")
        }
        let store = try ReadModelStore(
            environment: journal.environment, projections: [ProjectionDescriptor(Counts())])
        let projector = Projector(journal: journal, store: store, decoding: Counts.self)
        try projector.catchUp([Counts()])
        let changed = Counts(onlyStream: "s1")
        let sleeper = try ProgramHandle("/bin/sleep", ["60"])
        defer {
            kill(sleeper.processIdentifier, SIGKILL)
            _ = sleeper.wait()
        }
        let start = try #require(BuilderProcess.startOfProcess(sleeper.processIdentifier))
        func claim(_ start: BuilderProcess.Start) throws {
            let begun = Checkpoint(position: 0, version: changed.version, rulesDigest: changed.rulesDigest, slot: 1)
            try store.environment.write { transaction in
                try store.putRebuildMarker(
                    RebuildMarker(
                        checkpoint: begun, builder: BuilderProcess(processID: sleeper.processIdentifier, start: start)),
                    for: changed.name, transaction)
            }
        }
        try claim(start)
        #expect(try projector.catchUp([changed]) == [changed.name])
        #expect(changed.seen.value == 0)
        var later = start
        later.ticksAfterBoot += 1
        try claim(later)
        #expect(try projector.catchUp([changed]).isEmpty)
        // Events 2 and 5 are in stream s1.
        #expect(changed.seen.value == 6)
        try store.read { snapshot in
            let model = try #require(try snapshot.model(changed.name))
            #expect(model.checkpoint.slot == 1 && model.checkpoint.rulesDigest == changed.rulesDigest)
            #expect(try model.table(0).withValue(forKey: Array("s1".utf8)) { $0.bigEndian(UInt64.self, at: 0) } == 2)
            #expect(try !snapshot.isRebuilding(changed.name))
        }
    }
}
