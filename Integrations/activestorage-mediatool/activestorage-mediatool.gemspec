# frozen_string_literal: true

require_relative "lib/active_storage/mediatool/version"

Gem::Specification.new do |spec|
  spec.name = "activestorage-mediatool"
  spec.version = ActiveStorage::Mediatool::VERSION
  spec.summary = "Active Storage analyses and previews uploads with mediatool: upright, HDR tone mapped, sandboxed"
  spec.description = <<~TEXT
    Analyzers for videos, audio and pictures and a previewer for videos that run mediatool's
    sandboxed command line instead of ffprobe, ffmpeg, vips or ImageMagick: portrait phone
    videos measured portrait, HDR previews tone mapped, one mediatool process kept per Rails
    process and fed blobs.
  TEXT
  spec.authors = ["The mediatool authors"]
  spec.license = "MIT"
  spec.files = Dir["lib/**/*.rb", "README.md"]
  spec.require_paths = ["lib"]
  # Debian 12's Rails is 6.1; the analyzer and previewer API used is the one 6.1 to 8 share.
  spec.required_ruby_version = ">= 2.7"
  spec.add_dependency "activestorage", ">= 6.1"
  spec.add_dependency "railties", ">= 6.1"
end
