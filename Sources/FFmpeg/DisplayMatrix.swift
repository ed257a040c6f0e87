import Imaging

extension Orientation {
    /// The orientation nearest to an FFmpeg display matrix (9 values, 16.16 fixed point), and whether
    /// it is exact: a matrix that rotates by other than a multiple of 90 degrees is rounded.
    ///
    /// The matrix (QuickTime's tkhd matrix, as FFmpeg keeps it) maps row vectors in image
    /// coordinates, y pointing down: (x, y) goes to (a x + c y, b x + d y). An iPhone portrait clip
    /// has a = 0, b = 1, c = -1, d = 0: x' = -y, y' = x, a quarter turn clockwise. This agrees with
    /// the ffmpeg command line's own autorotation.
    public static func nearest(toDisplayMatrix matrix: [Int32]) -> (orientation: Orientation, isExact: Bool) {
        guard matrix.count >= 5 else { return (.identity, true) }
        let a = Int64(matrix[0]), b = Int64(matrix[1]), c = Int64(matrix[3]), d = Int64(matrix[4])
        let keepsAxes = abs(a) + abs(d) >= abs(b) + abs(c)
        let isExact = keepsAxes ? (b == 0 && c == 0) : (a == 0 && d == 0)
        // Signs of x' per x, x' per y, y' per x, y' per y.
        let signs = keepsAxes ? (a.signum(), 0, 0, d.signum()) : (0, c.signum(), b.signum(), 0)
        switch signs {
        case (1, 0, 0, 1): return (.identity, isExact)
        case (-1, 0, 0, 1): return (.mirrorHorizontal, isExact)
        case (-1, 0, 0, -1): return (.rotate180, isExact)
        case (1, 0, 0, -1): return (.mirrorVertical, isExact)
        case (0, 1, 1, 0): return (.transpose, isExact)
        case (0, -1, 1, 0): return (.rotate90Clockwise, isExact)
        case (0, -1, -1, 0): return (.transverse, isExact)
        case (0, 1, -1, 0): return (.rotate270Clockwise, isExact)
        default: return (.identity, false)
        }
    }
}
