import Glibc
import Imaging

/// Wolt's BlurHash of a picture: its sRGB samples linearised, projected on products of cosines
/// (`componentsX` across, `componentsY` down), quantised and written in base 83, as the reference
/// encoders (the Swift original, PyPI's `blurhash`) write it. Each component is an average over
/// the picture, so a reduction of it (as the references' documentation advises) gives nearly the
/// same components as the whole.
public enum BlurHash {
    public static let componentRange = 1...9
    static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz#$%*+,-.:;=?@[]^_{|}~")

    public static func encode(_ picture: PixelBuffer, componentsX: Int = 4, componentsY: Int = 3) -> String {
        precondition(componentRange.contains(componentsX) && componentRange.contains(componentsY))
        let samples = RGBSamples(picture)
        let width = samples.width, height = samples.height
        let linear = (0...255).map { srgbToLinear(Double($0) / 255) }
        var components: [(Double, Double, Double)] = []
        var largestAC = 0.0
        for j in 0..<componentsY {
            let down = (0..<height).map { cos(Double.pi * Double(j) * Double($0) / Double(height)) }
            for i in 0..<componentsX {
                let across = (0..<width).map { cos(Double.pi * Double(i) * Double($0) / Double(width)) }
                var sum = (0.0, 0.0, 0.0)
                for y in 0..<height {
                    for x in 0..<width {
                        let basis = across[x] * down[y], pixel = (y * width + x) * 4
                        sum.0 += basis * linear[Int(samples.rgba[pixel])]
                        sum.1 += basis * linear[Int(samples.rgba[pixel + 1])]
                        sum.2 += basis * linear[Int(samples.rgba[pixel + 2])]
                    }
                }
                let scale = (i == 0 && j == 0 ? 1.0 : 2.0) / Double(width * height)
                let component = (sum.0 * scale, sum.1 * scale, sum.2 * scale)
                if i > 0 || j > 0 { largestAC = max(largestAC, abs(component.0), abs(component.1), abs(component.2)) }
                components.append(component)
            }
        }
        let dc = components[0]
        let dcValue = (linearToSRGB(dc.0) << 16) + (linearToSRGB(dc.1) << 8) + linearToSRGB(dc.2)
        let quantisedMaximum = Int(max(0, min(82, (largestAC * 166 - 0.5).rounded(.down))))
        let acScale = Double(quantisedMaximum + 1) / 166
        func quantised(_ value: Double) -> Int {
            Int(max(0, min(18, (signedPower(value / acScale, 0.5) * 9 + 9.5).rounded(.down))))
        }
        var text = base83(componentsX - 1 + (componentsY - 1) * 9, length: 1)
        text += base83(quantisedMaximum, length: 1)
        text += base83(dcValue, length: 4)
        for component in components.dropFirst() {
            text += base83(quantised(component.0) * 361 + quantised(component.1) * 19 + quantised(component.2), length: 2)
        }
        return text
    }

    static func srgbToLinear(_ value: Double) -> Double {
        value <= 0.04045 ? value / 12.92 : pow((value + 0.055) / 1.055, 2.4)
    }

    static func linearToSRGB(_ value: Double) -> Int {
        let clamped = max(0, min(1, value))
        if clamped <= 0.0031308 { return Int(clamped * 12.92 * 255 + 0.5) }
        return Int((1.055 * pow(clamped, 1 / 2.4) - 0.055) * 255 + 0.5)
    }

    static func signedPower(_ value: Double, _ exponent: Double) -> Double {
        (value < 0 ? -1 : 1) * pow(abs(value), exponent)
    }

    static func base83(_ value: Int, length: Int) -> String {
        var digits: [Character] = []
        var rest = value
        for _ in 0..<length {
            digits.append(alphabet[rest % 83])
            rest /= 83
        }
        return String(digits.reversed())
    }
}
