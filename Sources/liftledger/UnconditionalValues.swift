import ArgumentParser

/// Checks the values of options read with `parsing: .unconditional`, which take whatever follows them so that a
/// negative number reaches the command and is refused for what it is: a value that is another option's name
/// (`log squat 100 x 5 --rpe --confirm`) means the option was given none.
func requireValues(_ options: KeyValuePairs<String, String?>) throws {
    for case (let option, let value?) in options where value.hasPrefix("--") {
        throw ValidationError("missing value for '\(option)': \(value) is an option")
    }
}
