import Foundation
import MediaToolKit

/// One library job a run, as the command line's subcommand does it, so that whole processes compare:
///
///     LibraryBench still VIDEO SECONDS OUT.png        thumbnail --at SECONDS (the exact frame)
///     LibraryBench sizes PICTURE OUT W,W,W            thumbnail --size W... (every size from one decode)
///     LibraryBench crop PICTURE X,Y,W,H OUT.png       crop --rect X,Y,W,H
///     LibraryBench probe FOLDER                       probe --jobs 1 FOLDER (every file, one after another)
///     LibraryBench stats FILE                         dump-doubles --stats (count, mean, deviation, min, max)
///     LibraryBench calls N thumbnail|probe FILE       N calls one after another in this process: the
///                                                     median milliseconds a call (workers kept warm)
///
/// `LIBRARY_WORKER=PATH` decodes in the sandbox's workers (that `mediatool`), else in this process.
@main
struct LibraryBench {
    static let configuration: MediaConfiguration = {
        var configuration = MediaConfiguration()
        configuration.sandbox = ProcessInfo.processInfo.environment["LIBRARY_WORKER"].map(MediaSandbox.worker) ?? .inProcess
        return configuration
    }()

    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch arguments.first {
        case "calls":
            var milliseconds: [Double] = []
            for _ in 0..<Int(arguments[1])! {
                let start = DispatchTime.now().uptimeNanoseconds
                if arguments[2] == "probe" {
                    _ = try await MediaProber(configuration: configuration).probe(.path(arguments[3]))
                } else {
                    _ = try await ThumbnailGenerator(configuration: configuration).thumbnails(of: .path(arguments[3]), fitting: [ThumbnailBounds(width: 256)])
                }
                milliseconds.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            print(String(format: "%.2f", milliseconds.sorted()[milliseconds.count / 2]))
        case "still":
            let frame = try await VideoFrameGenerator(.path(arguments[1]), configuration: configuration).image(at: Double(arguments[2])!)
            try await frame.image.write(to: URL(fileURLWithPath: arguments[3]), overwrite: true)
        case "sizes":
            let widths = arguments[3].split(separator: ",").map { Int($0)! }
            let source = try await ImageSource(.path(arguments[1]), configuration: configuration)
            let pictures = try await source.thumbnails(fitting: widths.map { ThumbnailBounds(width: $0, height: $0) })
            for (width, picture) in zip(widths, pictures) {
                try await picture.write(to: URL(fileURLWithPath: "\(arguments[2])-\(width).png"), overwrite: true)
            }
        case "crop":
            let rect = arguments[2].split(separator: ",").map { Double($0)! }
            let crop = try await ImageSource(.path(arguments[1]), configuration: configuration).cropping(to: ImageRect(x: rect[0], y: rect[1], width: rect[2], height: rect[3]))
            try await crop.write(to: URL(fileURLWithPath: arguments[3]), overwrite: true)
        case "probe":
            let folder = URL(fileURLWithPath: arguments[1])
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted().map { folder.appendingPathComponent($0) }
            // One after another, as `probe --jobs 1`: the calls' own cost, not a batch's scheduling.
            var one = configuration
            one.threads = 1
            let prober = MediaProber(configuration: one)
            for file in files { print(try await prober.probe(.file(file)).format) }
        case "stats":
            // What --stats says of them: count, mean and deviation (Welford), minimum, maximum.
            var count = 0, mean = 0.0, squares = 0.0, low = Double.infinity, high = -Double.infinity
            for try await block in BinaryArrayFile<Double>(.path(arguments[1])) {
                for value in block {
                    count += 1
                    let delta = value - mean
                    mean += delta / Double(count)
                    squares += delta * (value - mean)
                    low = min(low, value)
                    high = max(high, value)
                }
            }
            let deviation = count > 1 ? (squares / Double(count - 1)).squareRoot() : 0
            print(count, shortestRoundTripText(mean), shortestRoundTripText(deviation), shortestRoundTripText(low), shortestRoundTripText(high))
        default:
            FileHandle.standardError.write(Data("usage: LibraryBench still|sizes|crop|probe|stats ...\n".utf8))
            exit(64)
        }
    }
}
