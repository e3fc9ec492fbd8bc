import ArgumentParser
import EventJournal
import Interchange

struct VerifyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check every record's checksum, the hash chain, and that every index agrees with the records.",
        discussion:
            "Checks the structure of every LMDB page first (the read models' too). Exits with status 1 and names the "
            + "first bad position, or the damaged page and its database, when anything does not match.")

    @OptionGroup var location: JournalLocation

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() async throws {
        var bar = ProgressBar(label: "verify")
        let report: VerificationReport
        do {
            report = try location.open(checkingPagesFirst: true).verify { bar.update($0, of: $1) }
        } catch let error as JournalError where json && [.corruptRecord, .notAJournal].contains(error.code) {
            // Damage that stops the journal opening or being read is a failed check too: a script reads it as one.
            bar.finish()
            Terminal.write(
                JSON.object([
                    ("valid", .bool(false)), ("recordsChecked", .unsigned(0)), ("headPosition", .null),
                    ("firstBadPosition", error.position.map { .unsigned($0) } ?? .null),
                    ("problem", .string(error.message)),
                ]).rendered + "\n")
            throw error
        }
        bar.finish()
        if json {
            var members: [(String, JSON)] = [
                ("valid", .bool(report.isValid)), ("recordsChecked", .unsigned(report.recordsChecked)),
                ("headPosition", .unsigned(report.headPosition)),
            ]
            if report.isValid {
                members += [
                    ("streams", .integer(Int64(report.streams))), ("headHash", .string(report.headHash.hexString)),
                ]
            }
            // A failed check counts streams and chains hashes only up to the problem: not the journal's, left out.
            if let problem = report.problem {
                members.append(("firstBadPosition", problem.position.map { .unsigned($0) } ?? .null))
                members.append(("problem", .string(problem.detail)))
            }
            Terminal.write(JSON.object(members).rendered + "\n")
        }
        if let problem = report.problem {
            Terminal.fail("verify failed at \(problem); \(problem.remedy)")
        }
        if !json {
            Terminal.write(
                "ok: \(counted(report.recordsChecked, "record")) in \(counted(report.streams, "stream")), head hash "
                    + "\(report.headHash.hexString)\n"
            )
        }
    }
}
