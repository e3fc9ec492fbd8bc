import ArgumentParser
import Training

/// `--time` and `--distance`, which `log` and `correct` take: how long a set lasted and how far it went.
struct SetTimeOptions: ParsableArguments {
    // Taken whatever they look like, so that a negative time or distance is refused for what it is.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How long the set lasted: 90, 1:30, 45s, 30m or '1h 5m' (quoted).", valueName: "time"))
    var time: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("How far the set went: 5km, 400m, 3.1mi, 100yd or 50ft.", valueName: "distance"))
    var distance: String?

    func validate() throws { try requireValues(["--time": time, "--distance": distance]) }

    /// The time given, in seconds.
    func seconds() throws -> UInt32? { try time.map(TimeAndDistance.seconds) }

    /// The distance given, in metres.
    func metres() throws -> ExactDecimal? { try distance.map(TimeAndDistance.metres) }
}
