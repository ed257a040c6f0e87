import Batch
import FileIO
import JSON
import Storyboards

extension Storyboarder {
    /// Writes the storyboard of `input`: the WebVTT file at `vtt`, its pictures beside it. They
    /// appear together or not at all: each is written to a temporary file, and all are moved into
    /// place once every one is complete, the WebVTT file last.
    /// `html`: also a page that shows the storyboard at work (see `StoryboardPage`).
    public func makeStoryboard(of input: String, vtt: String, html: String? = nil) throws -> StoryboardReport {
        let (file, outputs) = try job(html: html).open(input: input, outputs: [PlannedOutput(path: vtt)])
        let report = try makeStoryboard(from: file, input: input, vtt: vtt, html: html, outputs: outputs)
        try outputs.commit()
        return report
    }

    /// The storyboard as a job: the WebVTT file planned, the pictures beside it and the page (when
    /// asked) the only other outputs it may open.
    public func job(html: String?) -> FileJob {
        let (fileExtension, policy, tiling) = (options.format.fileExtension, options.output, options.tiling)
        // At most the frames asked for (`--count`); with `--every`, the most a schedule has.
        let most = if case .count(let count) = options.selection { count } else { FrameSchedule.maxFrames }
        return FileJob(recognise: nil, policy: policy, allowsOutput: { planned, path, namedByUser, opened in
            let vtt = planned[0].path
            if let html, path == html { return namedByUser == policy.isNamedByUser }
            // The pictures in the order they are written, named as the tiling names them.
            let pictures = opened.filter { $0 != html }
            return !namedByUser && pictures.count < most
                && StoryboardNames.isPicture(path, number: pictures.count + 1, after: pictures.first, of: vtt,
                                             fileExtension: fileExtension, tiling: tiling, most: most)
        }) { file, outputs, vtt in
            let report = try makeStoryboard(from: file, input: file.displayName, vtt: vtt, html: html, outputs: outputs)
            return try JobReport(report, warnings: report.warnings)
        }
    }
}
