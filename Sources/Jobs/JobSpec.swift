import Batch
import FFmpeg
import ImageCodecs
import ImageCropping
import Imaging
import Ingest
import MediaProbe
import MetadataStripping
import Previews
import Storyboards
import VideoThumbnails
import WebVideo

/// One job as a value: what the command line builds from its arguments, what the batch runs on
/// each input, and what a sandboxed worker is sent (Codable: `JSONValueEncoder` puts it on the
/// wire), so that no worker parses the user's command line again.
public enum JobSpec: Sendable, Codable {
    case thumbnail(ThumbnailOptions)
    case crop(CropOptions)
    case probe(ProbeOptions)
    /// `html`: the page that shows the storyboard, named by the user.
    case storyboard(StoryboardOptions, html: String?)
    case preview(PreviewOptions)
    case ingest(IngestOptions)
    case transcode(TranscodeOptions)
    case strip(StripOptions)
    /// A library's call: pictures in memory, not files.
    case pixels(PixelJob)

    /// The job on `threads` threads (0: every core), its encoder's included, as the batch counted them.
    public func job(threads: Int) -> FileJob {
        switch self {
        case .thumbnail(var options):
            options.threads = threads
            options.encoding.threads = threads
            return Thumbnailer(options: options).job
        case .crop(var options):
            options.threads = threads
            options.encoding.threads = threads
            return Cropper(options: options).job
        case .probe(var options):
            options.threads = threads
            return Prober(options: options).job
        case .storyboard(var options, let html):
            options.threads = threads
            options.encoding.threads = threads
            return Storyboarder(options: options).job(html: html)
        case .preview(var options):
            options.threads = threads
            return Previewer(options: options).job
        case .ingest(var options):
            options.threads = threads
            return Ingester(options: options).job
        case .transcode(var options):
            options.threads = threads
            return options.makesLadder ? Transcoder(options: options).ladderJob : Transcoder(options: options).job
        case .strip(let options):
            // Strip copies bytes: one thread is all it uses.
            return MetadataStripper.job(options: options)
        case .pixels(let job):
            // The caller set its threads.
            return job.job
        }
    }

    /// The same job, its memory reserved from `lender`'s budget (a worker's, which is its parent's
    /// and shared by the run's workers) within its own `--max-memory`.
    public func borrowingMemory(from lender: MemoryBudget.Lender?) -> JobSpec {
        budgeted { maxMemory, _ in MemoryBudget(total: maxMemory, lender: lender) }
    }

    /// The same job, done in this process, as one holder of the run's budget its options hold
    /// (`MemoryBudget.share`): a wait stuck for `stall` seconds ends where this job holds the most.
    public func sharingMemory(givingUpAfter stall: Double) -> JobSpec {
        budgeted { maxMemory, current in current?.share(total: maxMemory, givingUpAfter: stall) }
    }

    func budgeted(by make: BudgetMaker) -> JobSpec {
        switch self {
        case .thumbnail(var options):
            options.limits = options.limits.budgeted(by: make)
            return .thumbnail(options)
        case .crop(var options):
            options.budget = make(options.maxMemory, options.budget)
            return .crop(options)
        case .probe(var options):
            options.limits = options.limits.budgeted(by: make)
            return .probe(options)
        case .storyboard(var options, let html):
            options.limits = options.limits.budgeted(by: make)
            return .storyboard(options, html: html)
        case .preview(var options):
            options.limits = options.limits.budgeted(by: make)
            return .preview(options)
        case .ingest(var options):
            options.limits = options.limits.budgeted(by: make)
            return .ingest(options)
        case .transcode(var options):
            options.limits = options.limits.budgeted(by: make)
            return .transcode(options)
        case .strip:
            // Strip holds one metadata structure at a time (`FileBytes.structureLimit`), not pictures.
            return self
        case .pixels(let job):
            return .pixels(job.budgeted(by: make))
        }
    }

    /// Loads what a worker decodes with (`decoders`), before it is confined: the picture codecs'
    /// readers, and FFmpeg's libraries for media.
    public static func prepare(_ decoders: JobDecoders) throws {
        PictureFormat.prepareReaders()
        if decoders == .media { try FFmpegLibraries.load() }
    }
}
