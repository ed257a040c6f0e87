// swift-tools-version:6.0
import PackageDescription
import Foundation

/// PNG image data is inflated by ISA-L (libisal-dev) unless MEDIATOOL_NO_ISAL=1, which builds the zlib path.
let buildsWithISAL = ProcessInfo.processInfo.environment["MEDIATOOL_NO_ISAL"] != "1"

let package = Package(
    name: "mediatool",
    products: [
        .executable(name: "mediatool", targets: ["mediatool"]),
        // The same work in-process, for Swift servers: its public API is an interface, versioned semantically.
        .library(name: "MediaToolKit", targets: ["MediaToolKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The command line: parsing, reporting and exit codes only.
        .executableTarget(
            name: "mediatool",
            dependencies: [
                "BinaryArrays", "Failures", "FileIO", "Ingest", "JSON", "Reporting", "WorkerPool", "FFmpeg", "HEIFCodec", "TIFFCodec", "PNGCodec", "JPEGCodec", "WebPCodec", "ImageCodecs", "VideoThumbnails", "Storyboards", "Previews", "ImageCropping", "Imaging", "Batch", "Sandbox", "ColourManagement", "MediaProbe", "MetadataStripping", "Jobs", "WebVideo",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),

        // The library's public face: async, Sendable, typed errors, no global settings; the modules
        // below do the work, for it and the command line alike.
        .target(
            name: "MediaToolKit",
            dependencies: ["Batch", "BinaryArrays", "Failures", "FileIO", "FFmpeg", "ImageCodecs", "ImageCropping", "Imaging", "Ingest", "Jobs", "JSON", "MediaFormats", "MediaProbe", "NumberText", "Reporting", "Sandbox", "TIFFCodec", "VideoThumbnails", "WebVideo", "WorkerPool"]
        ),

        // libFuzzer targets, built by scripts/fuzz with --sanitize=fuzzer,address.
        .executableTarget(
            name: "MediaToolFuzz",
            dependencies: ["Batch", "BinaryArrays", "FFmpeg", "ImageCodecs", "ImageCropping", "Imaging", "Ingest", "JPEGCodec", "FileIO", "JSON", "Jobs", "MediaProbe", "MetadataStripping", "NumberText", "PNGCodec", "Previews", "Sandbox", "VideoThumbnails"]
        ),

        // The same thumbnail and crop many times in one process, to show memory stays flat.
        .executableTarget(name: "MediaToolSoak", dependencies: ["ImageCodecs", "ImageCropping", "Imaging", "FileIO", "Jobs", "Reporting", "VideoThumbnails"]),

        // Pure Swift: decoding, formatting, statistics and encoding of binary arrays of doubles.
        .target(name: "BinaryArrays", dependencies: ["Failures", "FileIO", "JSON", "NumberText", "WorkerPool"]),

        // Files in and out, safely: inputs opened once, atomic outputs, paths as bytes, system calls.
        .target(name: "FileIO", dependencies: ["CMediaToolSystem", "Failures", "WorkerPool"]),
        // What kind of failure an error is: the closed set every error type of the package answers.
        .target(name: "Failures"),
        // One JSON writer: strings (file names as bytes included), numbers, values.
        .target(name: "JSON", dependencies: ["Failures", "FileIO", "NumberText"]),
        // Numbers as text and back: the shortest digits that round-trip a double or float, and the
        // nearest double to a decimal, both from one table of 128-bit powers of ten.
        .target(name: "NumberText"),
        // What the user reads on standard error, and the libraries' versions.
        .target(name: "Reporting", dependencies: ["FileIO"]),
        // Threads that take jobs, as many as the cores the process may use.
        .target(name: "WorkerPool", dependencies: ["CMediaToolSystem"]),
        .target(name: "CMediaToolSystem"),

        // The batch engine: inputs listed and sharded, outputs planned, jobs run in parallel and reported.
        .target(name: "Batch", dependencies: ["Failures", "FileIO", "JSON", "Reporting", "WorkerPool"]),
        // Untrusted inputs decoded in confined worker processes (seccomp, Landlock, resource limits).
        .target(name: "Sandbox", dependencies: ["Failures", "Batch", "CMediaToolSystem", "CSandbox", "FileIO", "Imaging", "JSON", "Reporting", "WorkerPool"]),
        // Each job as a typed value (`JobSpec`): built by the command line, run by the batch, sent to a worker.
        .target(name: "Jobs", dependencies: ["Failures", "Batch", "FFmpeg", "ImageCodecs", "ImageCropping", "Imaging", "Ingest", "JSON", "MediaFormats", "MediaProbe", "MetadataStripping", "Previews", "Sandbox", "Storyboards", "TIFFCodec", "VideoThumbnails", "WebVideo"]),
        .target(name: "CSandbox", linkerSettings: [.linkedLibrary("seccomp")]),

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
        // ISA-L inflates PNG image data 2-3x faster than zlib; MEDIATOOL_NO_ISAL=1 builds the zlib path.
        .target(name: "CPNGShim", dependencies: ["CPNG", "CShimSupport", "CZlib"],
                cSettings: buildsWithISAL ? [.define("MEDIATOOL_WITH_ISAL")] : [],
                linkerSettings: buildsWithISAL ? [.linkedLibrary("isal")] : []),
        .target(name: "CJPEGShim", dependencies: ["CJPEG", "CShimSupport"]),
        .target(name: "FFmpeg", dependencies: ["Failures", "CFFmpeg", "CFFmpegLoader", "Imaging", "FileIO", "Reporting", "WorkerPool"]),

        // The crop job: rects mapped through orientation, the regions decoded through ImageCodecs, lossless JPEG crops.
        .target(name: "ImageCropping", dependencies: ["Failures", "ImageCodecs", "Imaging", "JPEGCodec", "FileIO", "MetadataStripping"]),

        // The thumbnail job: times, sizes, orientation and output, over the FFmpeg wrapper.
        .target(name: "MediaFormats", dependencies: ["FFmpeg", "FileIO", "ImageCodecs"]),
        .target(name: "VideoThumbnails", dependencies: ["Failures", "FFmpeg", "ImageCodecs", "MediaFormats", "Imaging", "FileIO", "MetadataStripping", "JSON", "Reporting", "WorkerPool", "ColourManagement"]),
        // lcms2 (Little CMS) for conversions from a picture's ICC profile to sRGB.
        .systemLibrary(
            name: "CLCMS2",
            pkgConfig: "lcms2",
            providers: [.apt(["liblcms2-dev"])]
        ),
        .target(name: "ColourManagement", dependencies: ["Failures", "CLCMS2", "Imaging", "Reporting"]),
        // The probe job: what a picture or video is, from its header and index (its readers' and FFmpeg's).
        // strip: where and by whom removed from a file's metadata, its pictures and samples copied as they are.
        .target(name: "MetadataStripping", dependencies: ["Failures", "FileIO", "HEIFCodec", "Imaging", "PNGCodec"]),
        .target(name: "MediaProbe", dependencies: ["Failures", "FFmpeg", "ImageCodecs", "MediaFormats", "MetadataStripping", "Imaging", "FileIO", "JSON", "ColourManagement"]),
        // Moving previews: a few seconds of a video as an animated WebP hover loop (issue 30, in progress).
        .target(name: "WebVideo", dependencies: ["Failures", "FFmpeg", "FileIO", "Imaging", "MediaFormats"]),
        .target(name: "Previews", dependencies: ["Failures", "FFmpeg", "FileIO", "ImageCodecs", "MediaFormats", "Imaging", "JSON", "VideoThumbnails", "WebPCodec", "WorkerPool"]),
        .target(name: "Storyboards", dependencies: ["Failures", "FFmpeg", "ImageCodecs", "Imaging", "FileIO", "JSON"]),
        .target(name: "PNGCodec", dependencies: ["Failures", "CPNG", "CZlib", "CPNGShim", "FileIO", "Imaging", "Reporting", "WorkerPool"]),
        .target(name: "JPEGCodec", dependencies: ["Failures", "CJPEG", "CJPEGShim", "CTurboJPEG", "FileIO", "Reporting"]),

        // `ingest`: from one open of an upload, its probe, renditions, storyboard, preview, placeholders and hashes.
        .target(name: "Ingest", dependencies: ["Failures", "FFmpeg", "FileIO", "ImageCodecs", "Imaging", "JSON", "MediaFormats", "MediaProbe", "MetadataStripping", "PictureDigests", "Previews", "Storyboards", "VideoThumbnails", "WebVideo", "WorkerPool", "CMediaToolSystem"]),
        // A picture's placeholders (BlurHash, ThumbHash) and perceptual hashes (ImageHash's dHash, pHash).
        .target(name: "PictureDigests", dependencies: ["Imaging"]),
        // Pixel buffers and orientation, shared by thumbnail and crop: no codec here.
        .target(name: "Imaging", dependencies: ["Failures", "FileIO", "CToneMap", "CResample", "WorkerPool"]),
        // Lanczos-3 reduction of rows as they are decoded, in the picture's own bit depth.
        .target(name: "CResample"),
        // HDRToneMapper's per-pixel loop, four pixels at a time in SSE2 registers.
        .target(name: "CToneMap"),

        // The one codec layer: the list of picture formats (names, extensions, signatures, limits), a reader and an encoder each.
        .target(name: "ImageCodecs", dependencies: ["Failures", "Imaging", "PNGCodec", "JPEGCodec", "WebPCodec", "HEIFCodec", "TIFFCodec", "FFmpeg", "FileIO", "Reporting", "WorkerPool"]),
        .systemLibrary(
            name: "CWebP",
            pkgConfig: "libwebp",
            providers: [.apt(["libwebp-dev"])]
        ),
        .target(name: "WebPCodec", dependencies: ["Failures", "CWebP", "FileIO", "Reporting"]),
        // libheif for HEIC and AVIF inputs; the container read here, for grids decoded tile by tile.
        .systemLibrary(
            name: "CHeif",
            pkgConfig: "libheif",
            providers: [.apt(["libheif-dev"])]
        ),
        // libheif's HEVC and AV1 decoders again, as plugins of mediatool's own that log nowhere
        // (libde265 and dav1d print to standard error from inside libheif's).
        .target(name: "CHeifShim", dependencies: ["CHeif"], linkerSettings: [.linkedLibrary("de265"), .linkedLibrary("dav1d")]),
        .target(name: "HEIFCodec", dependencies: ["Failures", "CHeif", "CHeifShim", "FileIO", "Imaging", "Reporting", "WorkerPool"]),
        // libtiff for TIFF inputs: strips and tiles read where the rect is; its variadic tag calls behind a shim.
        .systemLibrary(
            name: "CTIFF",
            pkgConfig: "libtiff-4",
            providers: [.apt(["libtiff-dev"])]
        ),
        .target(name: "CTIFFShim", dependencies: ["CTIFF"]),
        .target(name: "TIFFCodec", dependencies: ["Failures", "CTIFF", "CTIFFShim", "FileIO", "Reporting"]),

        .target(name: "TestSupport", dependencies: ["FileIO", "CPNG"], path: "Tests/TestSupport"),
        .testTarget(name: "BinaryArraysTests", dependencies: ["BinaryArrays", "JSON", "TestSupport"]),
        .testTarget(name: "FailuresTests", dependencies: ["Failures"]),
        .testTarget(name: "NumberTextTests", dependencies: ["NumberText", "TestSupport"]),
        .testTarget(name: "FileIOTests", dependencies: ["FileIO", "JSON", "Reporting"]),
        .testTarget(name: "BatchTests", dependencies: ["Batch", "FileIO"]),
        .testTarget(name: "ImagingTests", dependencies: ["Imaging"]),
        .testTarget(name: "PictureDigestsTests", dependencies: ["PictureDigests", "Imaging", "TestSupport"], exclude: ["Scripts"]),
        .testTarget(name: "MediaToolKitTests", dependencies: ["MediaToolKit", "TestSupport", "mediatool"], exclude: ["Scripts"]),
        .testTarget(name: "MediaProbeTests", dependencies: ["MediaProbe", "Imaging", "JSON", "TestSupport"]),
        .testTarget(name: "ImageCodecsTests", dependencies: ["ImageCodecs", "Imaging", "TestSupport"]),
        .testTarget(name: "FFmpegTests", dependencies: ["FFmpeg", "Imaging", "FileIO"]),
        .testTarget(name: "StoryboardsTests", dependencies: ["Storyboards"]),
        .testTarget(name: "IngestTests", dependencies: ["Ingest", "MediaProbe", "FileIO"]),
        .testTarget(name: "PreviewsTests", dependencies: ["Previews", "FileIO", "TestSupport"]),
        .testTarget(name: "PNGCodecTests", dependencies: ["PNGCodec", "CPNG", "FileIO", "TestSupport"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON", "FileIO", "TestSupport"]),
        .testTarget(name: "WorkerPoolTests", dependencies: ["WorkerPool"]),
        .testTarget(name: "JobsTests", dependencies: ["Jobs", "Failures", "FileIO", "Sandbox", "JSON", "FFmpeg", "ImageCodecs", "ImageCropping", "Imaging", "MediaProbe", "Previews", "Storyboards", "VideoThumbnails", "WebVideo", "WorkerPool", "TestSupport"]),
        .testTarget(name: "JPEGCodecTests", dependencies: ["JPEGCodec", "FileIO", "TestSupport"]),
        .testTarget(name: "WebPCodecTests", dependencies: ["WebPCodec", "FileIO", "TestSupport"]),
        .testTarget(name: "TIFFCodecTests", dependencies: ["TIFFCodec", "FileIO", "TestSupport"]),
        .testTarget(name: "HEIFCodecTests", dependencies: ["HEIFCodec", "FileIO", "TestSupport"]),
        .testTarget(name: "ImageCroppingTests", dependencies: ["ImageCropping", "ImageCodecs", "Imaging", "FileIO", "TestSupport"]),
        // Runs the built executable: exact output, exit codes and files.
        .testTarget(name: "MediaToolTests", dependencies: ["mediatool", "MediaToolSoak", "TestSupport", "CWebP", "ImageCodecs", "Imaging", "JPEGCodec", "FileIO", "PNGCodec"],
                    exclude: ["Scripts"]),
    ]
)
