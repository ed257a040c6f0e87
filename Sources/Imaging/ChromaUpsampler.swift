/// 4:2:0 chroma brought to every luma sample, bilinearly: a chroma sample sits between two luma
/// rows, and on the even column or between two columns as `siting` says. For 8-bit planes
/// (`YCbCr420Planes`) and 16-bit ones (10 and 12-bit HDR video) alike.
public struct ChromaUpsampler: Sendable {
    /// Where a chroma sample sits across: on the even luma column (MPEG-2, H.264, HEVC) or between
    /// two columns (JPEG, MPEG-1).
    public enum Siting: Sendable {
        case left
        case center
    }

    public let width: Int
    public let height: Int
    public let siting: Siting

    public init(width: Int, height: Int, siting: Siting) {
        self.width = width
        self.height = height
        self.siting = siting
    }

    public var chromaWidth: Int { (width + 1) / 2 }
    var chromaHeight: Int { (height + 1) / 2 }

    /// The chroma row for luma row `y`, ×4: three parts the row it belongs to, one part the
    /// nearer neighbour (chroma sits between luma rows 2j and 2j+1). `stride` in samples.
    public func blendRows(of plane: UnsafePointer<UInt8>, stride: Int, forLumaRow y: Int, into blend: UnsafeMutablePointer<Int32>) {
        let (near, far) = rows(forLumaRow: y)
        let nearRow = plane + near * stride, farRow = plane + far * stride
        for i in 0..<chromaWidth {
            blend[i] = 3 &* Int32(nearRow[i]) &+ Int32(farRow[i])
        }
    }

    public func blendRows(of plane: UnsafePointer<UInt16>, stride: Int, forLumaRow y: Int, into blend: UnsafeMutablePointer<Int32>) {
        let (near, far) = rows(forLumaRow: y)
        let nearRow = plane + near * stride, farRow = plane + far * stride
        for i in 0..<chromaWidth {
            blend[i] = 3 &* Int32(UInt16(littleEndian: nearRow[i])) &+ Int32(UInt16(littleEndian: farRow[i]))
        }
    }

    private func rows(forLumaRow y: Int) -> (near: Int, far: Int) {
        let own = y / 2
        return (own, y % 2 == 0 ? max(own - 1, 0) : min(own + 1, chromaHeight - 1))
    }

    /// Blended chroma (×4) to one value a luma column (×16).
    public func spread(_ blend: UnsafeMutablePointer<Int32>, into row: UnsafeMutablePointer<Int32>) {
        let pairs = width / 2
        let last = chromaWidth - 1
        switch siting {
        case .left:
            for i in 0..<pairs {
                let here = blend[i]
                row[i &* 2] = 4 &* here
                row[i &* 2 &+ 1] = 2 &* (here &+ blend[min(i &+ 1, last)])
            }
        case .center:
            for i in 0..<pairs {
                let here = blend[i]
                row[i &* 2] = 3 &* here &+ blend[max(i &- 1, 0)]
                row[i &* 2 &+ 1] = 3 &* here &+ blend[min(i &+ 1, last)]
            }
        }
        if width % 2 == 1 {
            // The odd last column has its own chroma sample and none to its right.
            row[width - 1] = siting == .left ? 4 &* blend[last] : 3 &* blend[last] &+ blend[max(last - 1, 0)]
        }
    }
}
