import EventJournal
import Foundation
import TestSupport
import Training

/// A journal in a temporary directory, removed with the value.
struct TestJournal {
    let directory: TemporaryDirectory
    let journal: Journal

    init() throws {
        directory = try TemporaryDirectory()
        journal = try Journal.open(at: directory.child("journal"), create: true)
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let microseconds: Mutex<Int64>

    init(_ start: String = "2026-11-22T18:00:00Z") {
        microseconds = Mutex(Timestamp(rfc3339: start)!.microsecondsSinceEpoch)
    }

    var now: Timestamp { Timestamp(microsecondsSinceEpoch: microseconds.withLock { $0 }) }

    func set(_ instant: String) {
        microseconds.withLock { $0 = Timestamp(rfc3339: instant)!.microsecondsSinceEpoch }
    }

    func advance(seconds: Double) {
        microseconds.withLock { $0 += Int64(seconds * 1_000_000) }
    }

    var function: @Sendable () -> Timestamp { { self.now } }
}

/// A minimal lock-protected value, a class so that escaping closures can share it (the standard library's `Mutex` is
/// not copyable, and such closures cannot capture it).
final class Mutex<Value>: @unchecked Sendable {
    // Safe: every access to `value` holds `lock`.
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// The error `body` throws, as a `TrainingError`, or nil.
func trainingError(_ body: () async throws -> Void) async -> TrainingError? {
    do {
        try await body()
        return nil
    } catch {
        return error as? TrainingError
    }
}

func weight(_ text: String, _ unit: MassUnit = .kilograms) -> Weight { Weight(ExactDecimal(text)!, unit) }

/// The bytes `write` writes into a new writer: a read-model row as a fold writes it.
func row(_ write: (inout PayloadWriter) -> Void) -> [UInt8] {
    var writer = PayloadWriter()
    write(&writer)
    return writer.finish()
}
