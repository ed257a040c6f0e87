import CMediaToolSystem
import Glibc

extension InputFile {
    /// An input of what `write` writes, held in a file in memory of no name: what a sandboxed
    /// worker, which may open no file, can make to read back bytes it wrote (a Motion Photo's
    /// video, read as a video). Its pages are the process's memory: callers bound what they write.
    public static func inMemory(displayName: String, writing write: (Int32) throws -> Void) throws -> InputFile {
        let descriptor = mt_memory_file("mediatool")
        guard descriptor >= 0 else { throw SystemError("cannot make a file in memory for \(displayName)") }
        do {
            try write(descriptor)
            guard lseek(descriptor, 0, SEEK_SET) == 0 else { throw SystemError("cannot read back \(displayName)") }
        } catch {
            close(descriptor)
            throw error
        }
        return try InputFile(adopting: descriptor, displayName: displayName)
    }
}
