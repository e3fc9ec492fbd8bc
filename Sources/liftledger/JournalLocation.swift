import ArgumentParser
import EventJournal
import Foundation

/// The options every command that touches a journal takes.
struct JournalLocation: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The journal directory.",
            discussion:
                "Defaults to $LIFTLEDGER_JOURNAL, else $XDG_DATA_HOME/liftledger (when absolute), else "
                + "~/.local/share/liftledger.",
            valueName: "dir"))
    var journal: String?

    @Option(
        help: ArgumentHelp(
            "When an append counts as done: 'durable' (after fsync) or 'relaxed' (no fsync at commit, synced every "
                + "100 ms: survives a killed process; a power cut or system crash may lose the last appends and, "
                + "as the file system may reorder writes, damage the journal).",
            valueName: "mode"))
    var durability: DurabilityChoice = .durable

    func validate() throws {
        if journal?.isEmpty == true {
            throw ValidationError("--journal needs a directory: give one, or leave the option out for the default")
        }
    }

    /// The directory the journal lives in, following the documented order of defaults.
    var path: String {
        if let journal { return journal }
        if let path = Self.variable("LIFTLEDGER_JOURNAL"), !path.isEmpty { return path }
        // A relative XDG_DATA_HOME is to be ignored (XDG Base Directory), as an empty HOME is.
        if let data = Self.variable("XDG_DATA_HOME"), data.hasPrefix("/") { return data + "/liftledger" }
        let home = Self.variable("HOME").flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return home + "/.local/share/liftledger"
    }

    /// The environment variable `name`, refused (the process ends with status 64) when it is not UTF-8: read as a
    /// string, each of its bad bytes would become U+FFFD, and the path would name another directory.
    private static func variable(_ name: String) -> String? {
        guard let value = getenv(name) else { return nil }
        guard let text = String(validatingCString: value) else {
            Terminal.fail(
                "$\(name) is not UTF-8 (\(String(cString: value).debugDescription)): a path read from it would name "
                    + "another directory; give the journal's directory in UTF-8 with --journal", status: 64)
        }
        return text
    }

    /// The journal; with `checkingPagesFirst`, every page checked as it opens (for `verify` and `backup`).
    func open(create: Bool = false, checkingPagesFirst: Bool = false) throws -> Journal {
        try Journal.open(
            at: path,
            options: JournalOptions(durability: durability.durability, checksPagesFirst: checkingPagesFirst),
            create: create)
    }
}

enum DurabilityChoice: String, ExpressibleByArgument, CaseIterable {
    case durable
    case relaxed

    var durability: Durability { self == .durable ? .durable : .relaxed }
}
