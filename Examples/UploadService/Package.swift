// swift-tools-version:6.1
import PackageDescription
import Foundation

// The repository two folders up, by path: its identity is its folder's name, whatever the clone is called.
let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

let package = Package(
    name: "UploadService",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: repository.path),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        // Hummingbird's own, named for the connection counting (its channels, its logger).
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.0.0"),
    ],
    targets: [
        .executableTarget(
            name: "UploadService",
            dependencies: [
                .product(name: "MediaToolKit", package: repository.lastPathComponent),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
    ]
)
