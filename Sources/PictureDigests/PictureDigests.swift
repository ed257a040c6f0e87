import Glibc
import Imaging

/// What a site keeps of a picture besides its renditions: two placeholders to show while they load,
/// and two perceptual hashes to find it again when it is uploaded anew.
public struct PictureDigests: Sendable, Equatable {
    /// ThumbHash's bytes in base64.
    public var thumbHash: String?
    public var blurHash: String?
    public var differenceHash: String?
    public var perceptualHash: String?

    public init(thumbHash: String? = nil, blurHash: String? = nil, differenceHash: String? = nil, perceptualHash: String? = nil) {
        self.thumbHash = thumbHash
        self.blurHash = blurHash
        self.differenceHash = differenceHash
        self.perceptualHash = perceptualHash
    }

    /// What is asked of the digests, and the reductions they are made from.
    public struct Request: Sendable, Codable, Equatable {
        public var placeholders = true
        public var hashes = true
        public var blurHashComponentsX = 4
        public var blurHashComponentsY = 3

        public init() {}

        public var isEmpty: Bool { !placeholders && !hashes }
    }

    /// The box the placeholders are made from: ThumbHash takes at most 100x100 (its reference
    /// reduces to it), and BlurHash's averages are the same from it as from the whole.
    public static let placeholderBox = ThumbHash.largestSide
    /// The box the hashes are reduced from with Pillow's kernel, as ImageHash reduces the whole
    /// picture: on a 24 MP photo, 256 left 6 of dHash's bits otherwise than the reference, 512 and
    /// 1024 left 3 (what stays is the decode at a reduced scale and the ladder's own filter).
    public static let hashBox = 512

    /// `placeholderPicture`: upright sRGB within `placeholderBox`; `hashPicture`: within `hashBox`.
    public init(request: Request, placeholderPicture: PixelBuffer?, hashPicture: PixelBuffer?) {
        self.init()
        if request.placeholders, let placeholderPicture {
            thumbHash = Base64.encode(ThumbHash.encode(placeholderPicture))
            blurHash = BlurHash.encode(placeholderPicture, componentsX: request.blurHashComponentsX, componentsY: request.blurHashComponentsY)
        }
        if request.hashes, let hashPicture {
            differenceHash = ImageHash.differenceHash(hashPicture)
            perceptualHash = ImageHash.perceptualHash(hashPicture)
        }
    }
}
