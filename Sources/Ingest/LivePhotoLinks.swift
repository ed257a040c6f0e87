import FileIO
import JSON

/// An iPhone Live Photo ingested as its two files (IMG_0001.HEIC and IMG_0001.MOV, in one run):
/// after the run, the manifests whose `content_identifier` is the same, one a picture's and one a
/// video's, are linked. Each gets `live_photo`: its `role` (`still` or `motion`) and the `manifest`
/// of the other (from its own folder), so that a site shows the still with its motion, and never
/// the MOV as an upload of its own. The manifests are the run's own; each is read within a
/// manifest's size and replaced whole, as every output is.
public enum LivePhotoLinks {
    /// The largest manifest read back: one holds names and numbers, a few KiB.
    static let largestManifest = 4 << 20

    /// Links the pairs among `manifests` (paths the run wrote); returns how many pairs it linked,
    /// and a warning for each manifest it could not rewrite.
    public static func link(_ manifests: [String], policy: OutputPolicy) -> (linked: Int, warnings: [String]) {
        var byIdentifier: [String: [(path: String, members: [JSONMember], kind: String)]] = [:]
        for path in manifests {
            guard let (members, kind, identifier) = read(path) else { continue }
            byIdentifier[identifier, default: []].append((path, members, kind))
        }
        var linked = 0, warnings: [String] = []
        for (identifier, parts) in byIdentifier.sorted(by: { $0.key < $1.key }) {
            // One still and one video: anything else (two stills of one identifier) is no Live Photo to link.
            guard parts.count == 2, let still = parts.first(where: { $0.kind == "picture" }),
                  let motion = parts.first(where: { $0.kind == "video" }) else { continue }
            do {
                try write(still.path, members: still.members, role: "still", other: motion.path, identifier: identifier, policy: policy)
                try write(motion.path, members: motion.members, role: "motion", other: still.path, identifier: identifier, policy: policy)
                linked += 1
            } catch {
                warnings.append("\(still.path) and \(motion.path): the Live Photo's link was not written: \(error)")
            }
        }
        return (linked, warnings)
    }

    /// A manifest's members, its kind and its content identifier, where it has one.
    static func read(_ path: String) -> (members: [JSONMember], kind: String, identifier: String)? {
        guard let file = try? InputFile(path: path), file.isRegular, let size = file.size, size <= largestManifest,
              let bytes = try? file.contents(), case .object(let members)? = try? JSONTextParser.parse(bytes) else { return nil }
        func text(_ name: String) -> String? {
            switch members.first(where: { $0.name == name })?.value {
            case .string(let value)?, .text(let value)?: return value
            default: return nil
            }
        }
        guard let kind = text("kind"), let identifier = text("content_identifier"), !identifier.isEmpty else { return nil }
        return (members.filter { $0.name != "live_photo" }, kind, identifier)
    }

    /// The manifest at `path` with its `live_photo` member, replacing it whole.
    static func write(_ path: String, members: [JSONMember], role: String, other: String, identifier: String, policy: OutputPolicy) throws {
        let link = JSONValue.object([
            JSONMember("role", .string(role)),
            JSONMember("content_identifier", .text(identifier)),
            JSONMember("manifest", .string(Ingester.relative(other, to: path))),
        ])
        let text = JSONValue.object(members + [JSONMember("live_photo", link)]).text + "\n"
        var replacing = policy
        replacing.overwrite = true
        let output = try AtomicOutputFile(path: path, policy: replacing)
        try FileSystem.writeAll(Array(text.utf8), to: output.descriptor, target: path)
        try output.commit()
    }
}
