import Glibc

/// Finds and removes the temporaries that runs which died left behind.
public enum TemporaryFiles {
    /// Removes, in `folder`, the temporaries no live run holds: a live run holds an exclusive lock
    /// on each of its own (see `AtomicOutputFile`), and a run that ended, however it ended, holds
    /// none. So a run in another PID namespace, container or machine sharing the folder never loses
    /// its temporaries to this one. Returns the names removed.
    @discardableResult
    public static func removeLeftovers(in folder: String) -> [String] {
        guard let opened = try? OutputFolder.open(folder), let names = opened.names() else { return [] }
        var removed: [String] = []
        // Finished temporaries (`<temporary>-<n>`) hold no lock of their own: their anchor's is
        // theirs, so they go once it can be taken or is gone.
        for name in names where isTemporaryName(name) {
            guard let fd = lockedForRemoval(name, in: opened) else { continue }
            defer { close(fd) }
            if opened.unlink(name) == 0 { removed.append(name) }
        }
        for name in names where isFinishedTemporaryName(name) {
            let anchor = String(name[..<name.lastIndex(of: "-")!])
            if opened.status(of: anchor) != nil {
                guard let fd = lockedForRemoval(anchor, in: opened) else { continue }
                close(fd)
            }
            if let status = opened.status(of: name), status.st_mode & S_IFMT == S_IFREG, opened.unlink(name) == 0 { removed.append(name) }
        }
        return removed.sorted()
    }

    /// `name` in `folder`, opened with its lock taken, when it is a regular file no live run holds;
    /// nil otherwise (a lock that cannot be had, or a file system without locks, means: leave it).
    private static func lockedForRemoval(_ name: String, in folder: OutputFolder) -> Int32? {
        let fd = PathBytes.withCString(name) { openat(folder.descriptor, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
        guard fd >= 0 else { return nil }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0,
              let there = folder.status(of: name), FileIdentity(there) == FileIdentity(status) else {
            close(fd)
            return nil
        }
        return fd
    }

    /// A name of the form finished temporaries have: a temporary's name, `-` and a decimal number.
    static func isFinishedTemporaryName(_ name: String) -> Bool {
        guard let dash = name.lastIndex(of: "-") else { return false }
        let number = name[name.index(after: dash)...]
        return !number.isEmpty && number.count <= 19 && number.allSatisfy { $0.isASCII && $0.isNumber }
            && isTemporaryName(String(name[..<dash]))
    }

    /// A name of the form temporaries have, `.mediatool-tmp-<pid>-<random>-<host>` (decimal, base
    /// 36, 8 hex digits), not merely its prefix: a user's `.mediatool-tmp-mine.png` is not one.
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix(AtomicOutputFile.temporaryMarker) else { return false }
        let fields = name.dropFirst(AtomicOutputFile.temporaryMarker.count).split(separator: "-", omittingEmptySubsequences: false)
        guard fields.count == 3 else { return false }
        return fields[0].allSatisfy(\.isASCII) && Int32(fields[0]) != nil
            && !fields[1].isEmpty && fields[1].allSatisfy { $0.isASCII && ($0.isNumber || $0.isLowercase) }
            && fields[2].count == 8 && fields[2].allSatisfy(\.isHexDigit)
    }

    /// Removes the leftovers in the folder `output` would be written to.
    @discardableResult
    public static func removeLeftovers(besides output: String) -> [String] {
        let folder = AtomicOutputFile.split(output).directory
        return removeLeftovers(in: folder.isEmpty ? "." : folder)
    }

    /// A new temporary file in `TMPDIR` (or /tmp), unlinked at once: gone when its descriptor closes.
    public static func unnamed(copyOf what: String) throws(SystemError) -> Int32 {
        var template = Array("\(Self.temporaryFolder)/mediatool-input-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw SystemError("cannot make a temporary copy of \(what)") }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        unlink(template)
        return fd
    }

    private static var temporaryFolder: String {
        guard let folder = getenv("TMPDIR").map({ String(cString: $0) }), !folder.isEmpty else { return "/tmp" }
        return folder
    }
}
