import Foundation

/// An animated WebP as tools other than ours read it: webpmux lists its frames, Pillow (libwebp's
/// demuxer) composites each one (a frame stores only what changed since the one before).
public enum AnimatedWebP {
    /// What `webpmux -info` says: the frame count, whether it loops forever, each frame's duration in ms.
    public static func info(_ path: String) throws -> (frames: Int, loopsForever: Bool, milliseconds: [Int]) {
        let text = String(decoding: try ChildProcess.run("/usr/bin/webpmux", ["-info", path]).standardOutput, as: UTF8.self)
        let count = text.split(separator: "\n").first { $0.hasPrefix("Number of frames:") }
            .flatMap { Int($0.split(separator: ":").last!.trimmingCharacters(in: .whitespaces)) } ?? 0
        let rows = text.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).map(String.init) }
            .filter { $0.count > 6 && $0[0].hasSuffix(":") && Int($0[0].dropLast()) != nil }
        return (count, text.contains("Loop Count : 0"), rows.compactMap { Int($0[6]) })
    }

    /// Every frame, composited, as 8-bit RGB PNG files `f1.png`, `f2.png`... in `folder`; their paths.
    public static func frames(of path: String, into folder: URL) throws -> [String] {
        let dump = """
            import sys
            from PIL import Image
            picture = Image.open(sys.argv[1])
            for index in range(picture.n_frames):
                picture.seek(index)
                picture.convert("RGB").save(f"{sys.argv[2]}/f{index + 1}.png")
            print(picture.n_frames)
            """
        let run = try ChildProcess.run("/usr/bin/python3", ["-c", dump, path, folder.path])
        guard run.status == 0, let count = Int(String(decoding: run.standardOutput, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw CocoaError(.fileReadCorruptFile)
        }
        return (1...max(count, 1)).map { folder.appendingPathComponent("f\($0).png").path }
    }
}
