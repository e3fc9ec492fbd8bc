#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How many transactions the current thread has open in any environment: lets the wrapper refuse what would
/// deadlock (a write inside another transaction, or a map resize while this thread's own transaction is live).
enum TransactionDepth {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static var current: Int { Int(bitPattern: pthread_getspecific(key)) }

    static func enter() { pthread_setspecific(key, UnsafeRawPointer(bitPattern: current + 1)) }
    static func leave() { pthread_setspecific(key, UnsafeRawPointer(bitPattern: current - 1)) }

    /// Throws `.misuse` when the current thread is inside a transaction.
    static func requireNone(_ operation: String, path: String, remedy: String) throws(LMDBError) {
        if current > 0 { throw LMDBError(code: .misuse, operation: operation, path: path, remedy: remedy) }
    }
}
