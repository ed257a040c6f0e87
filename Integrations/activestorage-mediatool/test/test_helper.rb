# frozen_string_literal: true

# What the tests share: the app (app.rb), fixtures, references.
require "minitest/autorun"
require "open3"
require "json"
require "vips"
require_relative "app"

Minitest.after_run { FileUtils.remove_entry(STORAGE, true) }

FIXTURES = File.expand_path("../../../Fixtures", __dir__)

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
