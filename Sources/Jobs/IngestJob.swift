import Batch
import FileIO
import Ingest
import MetadataStripping
import JSON
import Storyboards
import VideoThumbnails
import WebVideo

extension Ingester {
    /// The ingest as a job: its manifest planned first (opened before the work, moved into place
    /// last), its renditions, storyboard and preview planned after it, and the storyboard's
    /// pictures, named after its WebVTT file, the only others it may open.
    public var job: FileJob {
        let recipe = options.recipe
        let storyboardTemplate = recipe.storyboardTemplate
        let sheets = recipe.storyboard.map { (format: $0.format.fileExtension, tiling: Tiling.sheets(columns: $0.columns, rows: $0.rows)) }
        let most = if case .count(let count) = recipe.storyboard?.selection { count } else { FrameSchedule.maxFrames }
        // An HLS ladder's renditions, beside its master playlist (a planned output).
        let ladderTemplate = recipe.webVideo?.hls == true ? recipe.webVideoTemplate : nil
        var job = FileJob(recognise: Thumbnailer.recognise, policy: options.output, allowsOutput: { planned, path, namedByUser, opened in
            guard !namedByUser else { return false }
            if let ladderTemplate, let master = planned.first(where: { $0.variant == ladderTemplate })?.path {
                let names = HLSNames(master: master)
                if names.isRenditionFile(path) { return opened.filter(names.isRenditionFile).count < HLSNames.mostFiles }
            }
            guard let sheets, let vtt = planned.first(where: { $0.variant == storyboardTemplate })?.path else { return false }
            let plannedPaths = Set(planned.map(\.path))
            let ladder = ladderTemplate.flatMap { template in planned.first { $0.variant == template }.map { HLSNames(master: $0.path) } }
            let pictures = opened.filter { !plannedPaths.contains($0) && ladder?.isRenditionFile($0) != true }
            return pictures.count < most
                && StoryboardNames.isPicture(path, number: pictures.count + 1, after: pictures.first, of: vtt,
                                             fileExtension: sheets.format, tiling: sheets.tiling, most: most)
        }) { file, outputs, _ in
            let (fields, warnings) = try ingest(file, outputs: outputs)
            // The batch's line names the input itself.
            return JobReport(fields: fields.filter { $0.name != "input" }, warnings: warnings)
        }
        job.decoders = { input in
            let decoders = JobDecoders.forInput(input)
            // A photo that may be a Motion Photo: its video's preview is made with FFmpeg.
            guard decoders == .pictures, recipe.preview != nil else { return decoders }
            return MotionPhoto.mayHoldVideo(input) ? .media : .pictures
        }
        // The web video's muxer moves its index first, in the file: where it is a file, the worker writes it itself.
        if recipe.webVideo != nil, recipe.webVideo?.hls != true {
            let template = recipe.names.webVideo
            job.writesInPlaceBeside = { planned, path in planned.contains { $0.variant == template && $0.path == path } }
        }
        return job
    }
}
