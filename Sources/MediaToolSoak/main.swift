import Glibc
import FileIO
import ImageCropping
import Imaging
import VideoThumbnails
import Jobs
import Reporting

// Makes the same thumbnail and the same crop many times in one process and prints the resident
// memory after a warm-up and at the end: a leak shows as growth. Run by the tests and by
// `scripts/bench soak`.
//   MediaToolSoak VIDEO PICTURE OUTPUT_FOLDER [ITERATIONS]

/// The resident set, from /proc/self/statm (sizes in pages; the second is the resident set).
func residentKiB() -> Int {
    guard let file = fopen("/proc/self/statm", "r") else { return -1 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 128)
    guard fgets(&line, Int32(line.count), file) != nil else { return -1 }
    let fields = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self).split(separator: " ")
    guard fields.count >= 2, let pages = Int(fields[1]) else { return -1 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / 1024
}

let arguments = CommandLine.arguments
guard arguments.count >= 4 else {
    Diagnostics.raw("usage: MediaToolSoak VIDEO PICTURE OUTPUT_FOLDER [ITERATIONS]\n")
    exit(64)
}
let (video, picture, folder) = (arguments[1], arguments[2], arguments[3])
let iterations = arguments.count > 4 ? Int(arguments[4]) ?? 1000 : 1000
let warmUp = max(1, iterations / 10)

var thumbnailOptions = ThumbnailOptions()
thumbnailOptions.time = .at(.seconds(0))
thumbnailOptions.output = OutputPolicy(overwrite: true)
thumbnailOptions.threads = 1
let thumbnailer = Thumbnailer(options: thumbnailOptions)
var cropOptions = CropOptions(rect: .displayed(FractionalRect(x: 3, y: 2, width: 20, height: 10)))
cropOptions.output = OutputPolicy(overwrite: true)
let cropper = Cropper(options: cropOptions)

var afterWarmUp = 0
for iteration in 1...iterations {
    do {
        _ = try thumbnailer.makeThumbnail(of: video, to: "\(folder)/soak.thumb.png")
        _ = try cropper.crop(picture, to: "\(folder)/soak.crop.png")
    } catch {
        Diagnostics.error("soak", "\(error)")
        exit(1)
    }
    if iteration == warmUp { afterWarmUp = residentKiB() }
}
print("iterations \(iterations)")
print("resident_kib_after_warm_up \(afterWarmUp)")
print("resident_kib_at_end \(residentKiB())")
