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
        for name in names where isTemporaryName(name) {
            let fd = PathBytes.withCString(name) { openat(opened.descriptor, $0, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) }
            guard fd >= 0 else { continue }
            defer { close(fd) }
            var status = stat()
            // A lock that cannot be had (or a file system without locks) means: leave it.
            guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG, flock(fd, LOCK_EX | LOCK_NB) == 0,
                  let there = opened.status(of: name), FileIdentity(there) == FileIdentity(status) else { continue }
            if opened.unlink(name) == 0 { removed.append(name) }
        }
        return removed.sorted()
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
