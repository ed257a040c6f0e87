import FFmpeg
import Previews

/// A preview made of the frames another pass over the video finds (a storyboard's, a web
/// video's) at the preview's times, so that a frame both need is decoded once.
final class PreviewAlongside {
    let previewer: Previewer
    /// Made once the pass asks for the times.
    private(set) var assembly: PreviewAssembly?
    private var times: [Double] = []

    init(previewer: Previewer) {
        self.previewer = previewer
    }

    /// What the pass is given: the preview's times, and where each frame found goes.
    var job: FramesAlongside {
        FramesAlongside(times: { video in
            let (times, assembly) = try self.previewer.frames(alongsideIn: video)
            (self.times, self.assembly) = (times, assembly)
            return times
        }, take: { found, video in
            try self.assembly!.take(found.index, try self.previewer.picture(of: found.located, askedAt: self.times[found.index], in: video))
        })
    }
}
