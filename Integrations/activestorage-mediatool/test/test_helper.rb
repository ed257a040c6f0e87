# A real Rails app in one file, as small as Active Storage allows: SQLite in memory, the Disk
# service in a temporary folder, Active Job inline, vips for variants. The gem is added as an app
# adds it, by requiring it before the app is defined.
require "minitest/autorun"
require "tmpdir"
require "logger"
require "stringio"
require "open3"
require "json"
require "rails"
require "active_record/railtie"
require "active_job/railtie"
require "active_storage/engine"
require "activestorage/mediatool"
require "vips"

ENV["DATABASE_URL"] = "sqlite3::memory:"
STORAGE = Dir.mktmpdir("activestorage-mediatool-test-")
Minitest.after_run { FileUtils.remove_entry(STORAGE, true) }
LOG = StringIO.new
FIXTURES = File.expand_path("../../../Fixtures", __dir__)

class TestApp < Rails::Application
  config.root = STORAGE
  config.eager_load = false
  config.logger = Logger.new(LOG)
  config.active_storage.service = :test
  config.active_storage.service_configurations = { test: { service: "Disk", root: File.join(STORAGE, "blobs") } }
  config.active_storage.variant_processor = :vips
  config.active_job.queue_adapter = :inline
  config.secret_key_base = "test"
end
Rails.application.initialize!
ActiveRecord::Migration.verbose = false
require ActiveStorage::Engine.root.join("db/migrate/20170806125915_create_active_storage_tables.rb").to_s
CreateActiveStorageTables.migrate(:up)

module BlobHelpers
  def blob_of(path, filename: File.basename(path))
    File.open(path, "rb") { |file| ActiveStorage::Blob.create_and_upload!(io: file, filename: filename) }
  end

  def fixture(relative)
    File.join(FIXTURES, relative)
  end

  # What ffprobe says the first video stream shows: its coded size, the pixel aspect and the
  # display matrix's rotation applied (the reference the analyzer is held to).
  def ffprobe_shown_size(path)
    output, status = Open3.capture2("ffprobe", "-v", "error", "-select_streams", "v:0", "-show_streams", "-of", "json", path)
    raise "ffprobe failed on #{path}" unless status.success?

    stream = JSON.parse(output).fetch("streams").first
    width, height = stream["width"], stream["height"]
    sar = stream["sample_aspect_ratio"].to_s.split(":").map(&:to_i)
    width = (width * sar[0].to_r / sar[1]).round if sar.size == 2 && sar.all?(&:positive?)
    rotation = Array(stream["side_data_list"]).map { |data| data["rotation"] }.compact.first.to_i
    rotation % 180 == 0 ? [width, height] : [height, width]
  end

  # A copy of counter.mp4 (128x16) whose display matrix turns it by `tag` (FFmpeg 5.1's rotate
  # tag, written as a matrix), made as a phone's portrait clips are: coded landscape, shown upright.
  def rotated_counter(tag)
    path = File.join(STORAGE, "counter-rotate#{tag}.mp4")
    unless File.exist?(path)
      _, status = Open3.capture2e("ffmpeg", "-v", "error", "-y", "-i", fixture("video/counter.mp4"), "-c", "copy",
                                  "-metadata:s:v:0", "rotate=#{tag}", path)
      raise "ffmpeg could not make #{path}" unless status.success?
    end
    path
  end

  # Peak signal to noise of two pictures of one size, in dB, over their RGB samples.
  def psnr(first, second)
    first, second = [first, second].map { |image| image.colourspace(:srgb).extract_band(0, n: 3).cast(:float) }
    raise "sizes differ: #{first.width}x#{first.height}, #{second.width}x#{second.height}" unless first.size == second.size

    difference = first - second
    mse = (difference * difference).avg
    mse.zero? ? Float::INFINITY : 10 * Math.log10(255.0**2 / mse)
  end

  def log_lines_since(mark)
    LOG.string[mark..].lines
  end

  # With other settings for the block's time.
  def with_settings(**options)
    saved = ActiveStorage::Mediatool.settings
    ActiveStorage::Mediatool.settings = ActiveStorage::Mediatool::Settings.new(options)
    yield
  ensure
    ActiveStorage::Mediatool.settings = saved
  end
end
