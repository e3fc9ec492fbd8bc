// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "LiftLedger",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "liftledger", targets: ["liftledger"]),
        .library(name: "EventJournal", targets: ["EventJournal"]),
        .library(name: "Projections", targets: ["Projections"]),
        .library(name: "Training", targets: ["Training"]),
        .library(name: "Interchange", targets: ["Interchange"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
    ],
    targets: [
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // A crash inside LMDB (whose reads trust the file's pages) reported as one line: signal handling is C's.
        .target(name: "CFaultReport"),
        .target(name: "LMDB", dependencies: ["CLMDB", "CFaultReport"]),
        // SQLite, only for the benchmarks' peer: the same events kept as JSON rows.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // CRC-32C with the CPU's instruction: Swift has no portable access to it.
        .target(name: "CChecksum"),
        .target(
            name: "EventJournal",
            dependencies: ["LMDB", "CChecksum", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "Projections", dependencies: ["EventJournal", "LMDB"]),
        .target(
            name: "Training",
            dependencies: ["EventJournal", "Projections", "LMDB"],
            // free-exercise-db (public domain, Unlicense) and its licence, unmodified; our alias table.
            resources: [.copy("Resources")]
        ),
        .target(
            name: "Interchange",
            dependencies: ["EventJournal", "Training", .product(name: "Crypto", package: "swift-crypto")],
            // Other apps' exercise names mapped to catalog exercises: our own table.
            resources: [.copy("Resources")]
        ),
        .executableTarget(
            name: "liftledger",
            dependencies: [
                "EventJournal", "Interchange", "Projections", "Training",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Test support executables: the crash harness's child and the benchmark driver.
        .executableTarget(
            name: "liftledger-harness",
            dependencies: [
                "CSQLite", "EventJournal", "Interchange", "LMDB", "Projections", "Training",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            path: "Sources/Harness"
        ),
        .target(name: "TestSupport", path: "Tests/TestSupport"),
        .testTarget(name: "LMDBTests", dependencies: ["LMDB", "TestSupport"]),
        .testTarget(
            name: "EventJournalTests",
            dependencies: ["EventJournal", "LMDB", "TestSupport", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .testTarget(name: "ProjectionsTests", dependencies: ["Projections", "EventJournal", "LMDB", "TestSupport"]),
        .testTarget(name: "TrainingTests", dependencies: ["Training", "Projections", "EventJournal", "TestSupport"]),
        .testTarget(
            name: "InterchangeTests", dependencies: ["Interchange", "Training", "EventJournal", "TestSupport"]),
        .testTarget(
            name: "CLITests", dependencies: ["EventJournal", "LMDB", "Projections", "Training", "TestSupport"]),
    ]
)
