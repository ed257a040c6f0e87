import Batch
import Glibc
import ImageCodecs

/// What the first worker of a run loads, as far as the inputs named tell before they are listed.
enum StartingDecoders {
    /// Pictures only when every name given is a picture's (a folder, a list or a stream may hold
    /// videos): such a worker starts without FFmpeg's libraries.
    static func guess(_ inputs: [String], filesFrom: Bool) -> JobDecoders {
        if filesFrom || inputs.isEmpty { return .media }
        for input in inputs {
            var status = stat()
            guard stat(input, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return .media }
            let fileExtension = input.split(separator: "/").last?.split(separator: ".").last.map { $0.lowercased() } ?? ""
            guard input.contains("."), PictureFormat.readableExtensions.contains(fileExtension) else { return .media }
        }
        return .pictures
    }
}
