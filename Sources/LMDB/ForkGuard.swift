import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// LMDB environments must never be used in a child created by `fork()`: the child shares the parent's locks and map.
/// The guard records a fork in the child, and every environment operation there fails with `.misuse`.
enum ForkGuard {
    private static let forked = Atomic<Bool>(false)

    private static let installed: Void = {
        pthread_atfork(nil, nil) { ForkGuard.forked.store(true, ordering: .relaxed) }
    }()

    static func install() { _ = installed }

    static func check(_ operation: String) throws(LMDBError) {
        if forked.load(ordering: .relaxed) {
            throw LMDBError(
                code: .misuse, operation: operation,
                remedy: "an LMDB environment cannot be used after fork(); open it again in a new process (exec)")
        }
    }
}
