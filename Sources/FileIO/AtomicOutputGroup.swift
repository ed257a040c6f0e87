/// Outputs that appear together or not at all (a storyboard's sheets, its WebVTT index and page):
/// each written to its own temporary file, then all moved into place in one step that a signal
/// does not cut short; when one cannot be moved, those already moved are removed again. Outputs
/// never committed are removed with their temporaries, as every `AtomicOutputFile` is.
public struct AtomicOutputGroup {
    public private(set) var members: [AtomicOutputFile] = []

    public init() {}

    public mutating func append(_ output: AtomicOutputFile) {
        members.append(output)
    }

    /// Moves every member into place, in the order added, or none; those finished early first,
    /// while the outputs their temporaries are named after still hold their locks. With
    /// `keepingOthers`, a member whose name another run took meanwhile is left to it and the others
    /// go on into place; its `exists` is thrown once all are done.
    public func commit(keepingOthers: Bool = false) throws {
        try Interrupts.shared.withoutInterruption {
            var committed: [AtomicOutputFile] = []
            var takenByOthers: OutputError?
            do {
                for output in members.filter({ !$0.isWriting }) + members.filter(\.isWriting) {
                    do {
                        try output.commit(syncsFolder: false)
                    } catch let error as OutputError where keepingOthers {
                        guard case .exists = error else { throw error }
                        takenByOthers = takenByOthers ?? error
                        continue
                    }
                    committed.append(output)
                }
                // Each folder once, however many of the group's names it took.
                var synced: [ObjectIdentifier] = []
                for folder in members.compactMap(\.folderToSync) where !synced.contains(ObjectIdentifier(folder)) {
                    synced.append(ObjectIdentifier(folder))
                    try folder.sync()
                }
            } catch {
                for output in committed { output.withdraw() }
                throw error
            }
            // What this run moved into place stays beside what the other made.
            if let takenByOthers { throw takenByOthers }
        }
    }
}
