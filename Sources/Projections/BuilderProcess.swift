#if canImport(Glibc)
    import Glibc
#endif

/// The process that writes a rebuild, as its marker names it: its id and, where Linux tells them, the boot it runs in
/// and the moment it started. An id alone may be reused by a later process, which would pass for the builder; the
/// boot and the start tell them apart.
struct BuilderProcess: Equatable {
    var processID: Int32
    /// Where the process started; nil when it is not known (no `/proc`, or a marker from before it was kept).
    var start: Start?

    /// A process's start: the kernel's boot id, and the clock ticks from boot to the process's start.
    struct Start: Equatable {
        var bootID: [UInt8]
        var ticksAfterBoot: UInt64
    }

    /// This process.
    static func current() -> BuilderProcess {
        let processID = getpid()
        return BuilderProcess(processID: processID, start: startOfProcess(processID))
    }

    /// True while the process runs: it exists, has not ended (a process killed but not yet waited for by its parent
    /// keeps its id), and, when its start is known, started then. A process whose start cannot be read now (another
    /// user's, with `/proc` hiding them) is taken to be the builder while its id lives.
    var isAlive: Bool {
        guard kill(processID, 0) == 0 || errno == EPERM else { return false }
        guard let stat = Self.contents(of: "/proc/\(processID)/stat") else { return true }
        if Self.hasEnded(stat: stat) { return false }
        guard let start, let now = Self.start(stat: stat) else { return true }
        return start == now
    }

    /// i32 process id; then, when the start is known, 16 bytes boot id and u64 clock ticks after boot.
    var encoded: [UInt8] {
        var bytes: [UInt8] = []
        bytes.appendBigEndian(UInt32(bitPattern: processID))
        if let start {
            bytes += start.bootID
            bytes.appendBigEndian(start.ticksAfterBoot)
        }
        return bytes
    }

    init(processID: Int32, start: Start?) {
        self.processID = processID
        self.start = start
    }

    init?(decoding raw: UnsafeRawBufferPointer) {
        guard raw.count == 4 || raw.count == 28 else { return nil }
        processID = Int32(bitPattern: raw.bigEndian(UInt32.self, at: 0))
        start =
            raw.count == 28
            ? Start(bootID: Array(raw[4..<20]), ticksAfterBoot: raw.bigEndian(UInt64.self, at: 20)) : nil
    }

    /// The start of process `processID`, from `/proc`; nil when it is gone or `/proc` does not tell.
    static func startOfProcess(_ processID: Int32) -> Start? {
        contents(of: "/proc/\(processID)/stat").flatMap(start(stat:))
    }

    /// The start of the process whose `/proc/PID/stat` is `stat`; nil when the boot id cannot be read.
    private static func start(stat: String) -> Start? {
        guard let bootID, let ticks = ticksAfterBoot(stat: stat) else { return nil }
        return Start(bootID: bootID, ticksAfterBoot: ticks)
    }

    /// The kernel's boot id (a UUID, new at every boot) as 16 bytes; read once, since it cannot change meanwhile.
    static let bootID: [UInt8]? = {
        guard let text = contents(of: "/proc/sys/kernel/random/boot_id") else { return nil }
        let digits = text.utf8.filter { $0 != UInt8(ascii: "-") && $0 != UInt8(ascii: "\n") }
        guard digits.count == 32 else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: 32, by: 2) {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        return bytes
    }()

    /// Field 22 of `/proc/PID/stat`, `starttime`.
    static func ticksAfterBoot(stat: String) -> UInt64? {
        let fields = fieldsAfterName(stat: stat)
        guard fields.count > 19 else { return nil }
        return UInt64(String(decoding: fields[19], as: UTF8.self))
    }

    /// Whether field 3 of `/proc/PID/stat`, the state, says the process has ended: `Z` (a zombie, not yet waited for)
    /// or `X` (being removed).
    static func hasEnded(stat: String) -> Bool {
        guard let state = fieldsAfterName(stat: stat).first else { return false }
        return state.elementsEqual("Z".utf8) || state.elementsEqual("X".utf8)
    }

    /// The fields of `/proc/PID/stat` from the third on. The second field, the command's name in parentheses, may hold
    /// spaces and parentheses itself, so the fields are counted from the last `)`: the third field follows it.
    private static func fieldsAfterName(stat: String) -> [Substring.UTF8View] {
        guard let close = stat.utf8.lastIndex(of: UInt8(ascii: ")")) else { return [] }
        return stat.utf8[stat.utf8.index(after: close)...].split(separator: UInt8(ascii: " "))
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// A small file's text (`/proc` files report no size, so it is read until the end); nil when it cannot be read.
    private static func contents(of path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else { return nil }
            if count == 0 { return String(decoding: bytes, as: UTF8.self) }
            bytes += buffer[..<count]
        }
    }
}
