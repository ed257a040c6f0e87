# frozen_string_literal: true

# What the tests share: the app (app.rb), fixtures, references.
require "minitest/autorun"
require "open3"
require "json"
require "vips"
require_relative "app"
require_relative "references"

Minitest.after_run { FileUtils.remove_entry(STORAGE, true) }

FIXTURES = File.expand_path("../../../Fixtures", __dir__)

module BlobHelpers
  def blob_of(path, filename: File.basename(path))
    File.open(path, "rb") { |file| ActiveStorage::Blob.create_and_upload!(io: file, filename: filename) }
  end

  def fixture(relative)
    File.join(FIXTURES, relative)
  end

  def ffprobe_shown_size(path)
    References.ffprobe_shown_size(path)
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
