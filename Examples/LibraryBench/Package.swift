// swift-tools-version:6.0
import PackageDescription
import Foundation

// The repository two folders up, by path: its identity is its folder's name, whatever the clone is called.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

// `scripts/bench library`: the library's calls, one process a job, timed against the command line's.
let package = Package(
    name: "LibraryBench",
    dependencies: [.package(path: repository.path)],
    targets: [
        .executableTarget(name: "LibraryBench", dependencies: [.product(name: "MediaToolKit", package: repository.lastPathComponent)]),
    ]
)
