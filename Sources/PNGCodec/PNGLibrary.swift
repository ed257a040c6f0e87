import CPNG
import FileIO
import Reporting

/// The libpng this process is linked with.
public enum PNGLibrary {
    /// The version the loaded library reports, which may differ from the header built against.
    public static var version: LibraryVersion {
        LibraryVersion(name: "libpng", version: String(cString: png_get_libpng_ver(nil)))
    }
}
