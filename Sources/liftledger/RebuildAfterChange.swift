import EventJournal
import Training

extension TrainingLog {
    /// Brings the read models up to a change just recorded that rebuilds them (a rule's, the profile's time zone), with
    /// a progress bar on a terminal: the command that made it then returns with them current, not the next query.
    /// `change` names it in the error should they fail to follow.
    func rebuildAfter(_ change: String) throws {
        var bar = ProgressBar(label: "rebuilding")
        do {
            try readModels.catchUp { _, done, total in bar.update(done, of: total) }
        } catch {
            // The change is in the journal: say so, and what is left to do.
            bar.finish()
            let cause = JournalError.from(error)?.message ?? "\(error)"
            throw CLIError(
                message: "\(change) is recorded, but the read models were not rebuilt: \(cause)",
                remedy: "the next command rebuilds them; mend the cause first (liftledger rebuild shows it)")
        }
        bar.finish()
    }
}
