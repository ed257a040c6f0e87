import ColourManagement
import ImageCodecs
import Imaging
import FileIO
import WorkerPool

/// A picture in every size asked, from one decode at the smallest scale its format decodes to that
/// serves the largest size (shrink-on-load), its rows reduced as they come, turned upright at the end.
struct PictureThumbnails {
    let options: ThumbnailOptions

    func make(from file: InputFile, sizes: [ThumbnailSize]) throws -> MadeThumbnails {
        let limits = options.limits
        var opening = PictureOpening(maxPixels: limits.maxPixels, maxMemory: limits.maxMemory, threads: options.threads)
        opening.animationTime = options.animationTime
        let picture = try PictureFormat.open(file, opening)
        var warnings = picture.warnings
        // An animation's frame is chosen by --at.
        let useless = options.videoOnlyOptions.filter { !(picture.isAnimation && $0 == "--at") }
        if !useless.isEmpty {
            let named = useless.joined(separator: ", ")
            warnings.append("\(named) \(useless.count == 1 ? "is" : "are") for videos: a picture has one frame, which was used")
        }
        let orientation = options.appliesOrientation ? picture.orientation : .identity
        let display = orientation.displaySize(storedWidth: picture.storedWidth, storedHeight: picture.storedHeight)
        let ladder = ThumbnailLadder(sizes: sizes, displayWidth: display.width, displayHeight: display.height, fill: options.fill)
        let least = orientation.storedSize(displayWidth: ladder.decodeAtLeast.width, displayHeight: ladder.decodeAtLeast.height)
        let decoded = picture.reducedSize(atLeast: least.width, least.height)
        let reservation = try reserveMemory(picture, decoded: decoded, ladder: ladder)
        defer { withExtendedLifetime(reservation) {} }
        var pictures = try ladder.make(decodedWidth: decoded.width, decodedHeight: decoded.height, orientation: orientation,
                                       threads: WorkerThreads.count(forSetting: options.threads)) { band in
            try picture.readRows(at: decoded, into: band)
        }
        // The colour description stays with the pixels; EXIF does not (the pixels are upright, and a
        // thumbnail published carries no camera data or position).
        var metadata = PictureMetadata(color: picture.color)
        if options.convertsToSRGB, picture.hdrTransfer == nil, let profile = picture.color?.iccProfile {
            if SRGBConversion.describesRGB(profile) && pictures.allSatisfy({ $0.channels >= 3 }) {
                do {
                    // Every size of the picture has its layout: one transform for all of them.
                    let conversion = try SRGBConversion(from: profile, channels: pictures[0].channels, bytesPerSample: pictures[0].bytesPerSample)
                    pictures = pictures.map(conversion.convert)
                    metadata = PictureMetadata(color: ColorDescription(srgbIntent: 0))
                } catch {
                    // A profile lcms2 cannot use costs the conversion, not the thumbnail.
                    warnings.append("\(error): the profile was kept, the colours not converted (\(Setting.convertsToSRGB))")
                }
            } else {
                warnings.append("its ICC profile is not one lcms2 can convert RGB pixels from: the profile was kept, the colours not converted (\(Setting.convertsToSRGB))")
            }
        }
        if let transfer = picture.hdrTransfer {
            if options.hdr == .keep && options.format.keepsHDR {
                // As HDR video frames are kept: 16-bit, the code points with them (PNG's cICP, AVIF's nclx).
                metadata = PictureMetadata(codePoints: picture.codePoints.map { [$0[0], $0[1], 0, 1] })
                return MadeThumbnails(pictures: pictures.map { $0.withBytesPerSample(2) }, metadata: metadata, seconds: nil,
                                      orientation: orientation, warnings: warnings)
            } else {
                // Reduced in the signal's own terms, then mapped as a video frame of the same transfer is.
                let mapper = HDRToneMapper(transfer: transfer, peakNits: nil)
                pictures = pictures.map { HDRPhoto.toneMapped($0, mapper) }
                metadata = PictureMetadata()
            }
        }
        // Reduced in the picture's own depth, written in the one asked (--depth), as video frames are.
        pictures = pictures.map { $0.withBytesPerSample(options.sixteenBit ? 2 : 1) }
        return MadeThumbnails(pictures: pictures, metadata: metadata, seconds: nil, orientation: orientation, warnings: warnings)
    }

    /// The decoder's own needs, the decoded picture where the format does not give it in bands, and
    /// the ladder's, against `--max-memory`; held of the run's budget while the reservation lives.
    private func reserveMemory(_ picture: any SourcePicture, decoded: (width: Int, height: Int),
                               ladder: ThumbnailLadder) throws -> MemoryBudget.Reservation? {
        let (pixels, overflow) = decoded.width.multipliedReportingOverflow(by: decoded.height)
        let whole = overflow ? Int.max : pixels.multipliedReportingOverflow(by: picture.bytesPerPixel).partialValue
        let bands = picture.streamsRows ? min(whole, 1 << 21) : whole
        let ladderBytes = ladder.workingBytes(decodedWidth: decoded.width, decodedHeight: decoded.height,
                                              channels: 4, bytesPerSample: picture.bytesPerPixel >= 6 ? 2 : 1)
        let (sum, sumOverflow) = picture.workingBytes(reducedTo: decoded).addingReportingOverflow(bands)
        let (needed, neededOverflow) = sum.addingReportingOverflow(ladderBytes)
        let limit = options.limits.maxMemory
        if ladderBytes > limit || ladderBytes < 0 {
            let largest = ladder.rungs.max { $0.scaledWidth * $0.scaledHeight < $1.scaledWidth * $1.scaledHeight }!
            throw ThumbnailSizeError.tooLarge(width: largest.scaledWidth, height: largest.scaledHeight, needed: ladderBytes < 0 ? Int.max : ladderBytes, limit: limit)
        }
        if overflow || sumOverflow || neededOverflow || needed < 0 || needed > limit {
            throw DecodeLimitError.tooMuchMemory(needed: overflow || sumOverflow || neededOverflow || needed < 0 ? Int.max : needed,
                                                 limit: limit, width: picture.storedWidth, height: picture.storedHeight)
        }
        return options.limits.budget?.reserve(needed)
    }
}
