/// What a picture's header says of how it is coded, for `probe`: nothing decoded.
public struct PictureFacts: Sendable {
    /// mediatool's short name of the file's format (`jpeg`, `heic`, `avif`).
    public var format: String
    public var mime: String
    /// How the pixels are coded (`jpeg`, `hevc`, `av1`, `vp8l`, `deflate`).
    public var codec: String
    /// Bits per stored sample.
    public var bitDepth: Int
    public var hasAlpha: Bool
    /// An animation's frames, or a TIFF's pages; 1 for a still picture.
    public var frames: Int
    /// The size of a smaller copy the file carries (EXIF's IFD1, HEIF's `thmb`), as stored.
    public var embeddedThumbnail: (width: Int, height: Int)?
    /// Where the capture's date, camera and position are read, where it is not the EXIF block
    /// (`SourcePicture.exif`): a TIFF's own directories, the file itself.
    public var metadataDirectories: [UInt8]?

    public init(format: String, mime: String, codec: String, bitDepth: Int, hasAlpha: Bool, frames: Int = 1,
                embeddedThumbnail: (width: Int, height: Int)? = nil) {
        self.format = format
        self.mime = mime
        self.codec = codec
        self.bitDepth = bitDepth
        self.hasAlpha = hasAlpha
        self.frames = frames
        self.embeddedThumbnail = embeddedThumbnail
    }
}
