import FFmpeg

/// A pass over every frame of a video that another job makes (an ingest's web video): a
/// storyboard takes its cells' frames from it instead of decoding its own.
public struct SharedPass {
    /// The video the pass reads, open already: the storyboard's schedule is made from it.
    public let video: VideoSource
    /// Runs the pass, handing each of `jobs` its frames.
    public let run: (_ jobs: [FramesAlongside]) throws -> Void

    public init(video: VideoSource, run: @escaping (_ jobs: [FramesAlongside]) throws -> Void) {
        self.video = video
        self.run = run
    }
}
