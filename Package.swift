// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "mediatool",
    products: [
        .executable(name: "mediatool", targets: ["mediatool"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // The command line: parsing, reporting and exit codes only.
        .executableTarget(
            name: "mediatool",
            dependencies: [
                "BinaryArrays", "MediaIO", "FFmpeg", "PNGCodec", "JPEGCodec", "WebPCodec", "ImageCodecs", "VideoThumbnails", "ImageCropping", "Imaging", "Batch",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // libFuzzer targets, built by scripts/fuzz with --sanitize=fuzzer,address.
        .executableTarget(
            name: "MediaToolFuzz",
            dependencies: ["BinaryArrays", "FFmpeg", "ImageCropping", "Imaging", "JPEGCodec", "MediaIO", "PNGCodec", "VideoThumbnails"]
        ),

        // The same thumbnail and crop many times in one process, to show memory stays flat.
        .executableTarget(name: "MediaToolSoak", dependencies: ["ImageCodecs", "ImageCropping", "Imaging", "MediaIO", "VideoThumbnails"]),

        // Pure Swift: decoding, formatting, statistics and encoding of binary arrays of doubles.
        .target(name: "BinaryArrays", dependencies: ["MediaIO"]),

        // Shared file conventions: inputs, atomic outputs, per-input error reporting.
        .target(name: "MediaIO"),

        // The batch engine: inputs listed and sharded, outputs planned, jobs run in parallel and reported.
        .target(name: "Batch", dependencies: ["MediaIO"]),

        // C libraries, each behind one system-library target and one Swift wrapper.
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev"])]
        ),
        // FFmpeg loaded on first use, so that only video work pays for its 140 libraries.
        .target(name: "CFFmpegLoader"),
        .systemLibrary(
            name: "CPNG",
            pkgConfig: "libpng",
            providers: [.apt(["libpng-dev"])]
        ),
        .systemLibrary(
            name: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .systemLibrary(
            name: "CJPEG",
            pkgConfig: "libjpeg",
            providers: [.apt(["libjpeg62-turbo-dev"])]
        ),
        // libjpeg-turbo's TurboJPEG API, for its lossless transforms (jpegtran's, in memory).
        .systemLibrary(
            name: "CTurboJPEG",
            pkgConfig: "libturbojpeg",
            providers: [.apt(["libturbojpeg0-dev"])]
        ),
        // libpng's and libjpeg's setjmp/longjmp error handling must stay inside C frames: one shim
        // per library, and what both share.
        .target(name: "CShimSupport"),
        .target(name: "CPNGShim", dependencies: ["CPNG", "CShimSupport"]),
        .target(name: "CJPEGShim", dependencies: ["CJPEG", "CShimSupport"]),
        .target(name: "FFmpeg", dependencies: ["CFFmpeg", "CFFmpegLoader", "Imaging", "MediaIO"]),

        // The crop job: pictures opened by signature, rects mapped through orientation, regions decoded.
        .target(name: "ImageCropping", dependencies: ["ImageCodecs", "Imaging", "PNGCodec", "JPEGCodec", "MediaIO"]),

        // The thumbnail job: times, sizes, orientation and output, over the FFmpeg wrapper.
        .target(name: "VideoThumbnails", dependencies: ["FFmpeg", "ImageCodecs", "Imaging", "MediaIO"]),
        .target(name: "PNGCodec", dependencies: ["CPNG", "CZlib", "CPNGShim", "MediaIO"]),
        .target(name: "JPEGCodec", dependencies: ["CJPEG", "CJPEGShim", "CTurboJPEG", "MediaIO"]),

        // Pixel buffers and orientation, shared by thumbnail and crop: no codec here.
        .target(name: "Imaging", dependencies: ["MediaIO"]),

        // The one codec layer for outputs: formats, their names and extensions, one encoder each.
        .target(name: "ImageCodecs", dependencies: ["Imaging", "PNGCodec", "JPEGCodec", "WebPCodec", "MediaIO"]),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]
        ),
        .target(name: "WebPCodec", dependencies: ["CWebP", "MediaIO"]),

        .target(name: "TestSupport", dependencies: ["MediaIO", "CPNG"], path: "Tests/TestSupport"),
        .testTarget(name: "BinaryArraysTests", dependencies: ["BinaryArrays", "TestSupport"]),
        .testTarget(name: "MediaIOTests", dependencies: ["MediaIO"]),
        .testTarget(name: "BatchTests", dependencies: ["Batch", "MediaIO"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "Imaging"]),
        .testTarget(name: "FFmpegTests", dependencies: ["FFmpeg", "Imaging"]),
        .testTarget(name: "VideoThumbnailsTests", dependencies: ["VideoThumbnails", "Imaging"]),
        .testTarget(name: "PNGCodecTests", dependencies: ["PNGCodec", "CPNG", "MediaIO", "TestSupport"]),
        // Runs the built executable: exact output, exit codes and files.
        .testTarget(name: "MediaToolTests", dependencies: ["mediatool", "MediaToolSoak", "TestSupport", "CWebP", "ImageCodecs", "Imaging", "JPEGCodec", "MediaIO", "PNGCodec"]),
    ]
)
