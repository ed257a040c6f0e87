# frozen_string_literal: true

require "json"
require "active_support"
require "active_support/ordered_options"
require "active_support/fork_tracker"
require "active_storage/mediatool/version"

module ActiveStorage
  # Active Storage's analyses and video previews made by mediatool's sandboxed command line.
  # See the README for what it writes and how it is set up.
  module Mediatool
    # mediatool could not do what was asked of a blob (it failed on the file, timed out, or ended).
    class Error < StandardError; end

    autoload :Binary, "active_storage/mediatool/binary"
    autoload :Command, "active_storage/mediatool/command"
    autoload :Server, "active_storage/mediatool/server"
    autoload :ServerPool, "active_storage/mediatool/server_pool"
    autoload :Settings, "active_storage/mediatool/settings"
    autoload :Metadata, "active_storage/mediatool/metadata"
    autoload :Tool, "active_storage/mediatool/tool"
    autoload :Analyzer, "active_storage/mediatool/analyzer"
    autoload :Previewer, "active_storage/mediatool/previewer"

    class << self
      # The app's settings (`config.active_storage.mediatool`), read when Rails starts.
      def settings
        @settings ||= Settings.new
      end

      def settings=(settings)
        stop
        @settings = settings
      end

      # In a forked child: the parent's processes are let go, their pipes closed at once so that
      # the parent still ends them at once.
      def after_fork
        @lock = Mutex.new
        @tool&.abandon
        @tool = nil
      end

      # The processes kept are ended (at exit, or when the settings change).
      def stop
        @lock.synchronize do
          @tool&.stop
          @tool = nil
        end
      end

      # The mediatool runs this process uses, or nil when there is no mediatool to run.
      def tool
        path = Binary.path
        return nil unless path

        @lock.synchronize do
          if @tool && @tool.binary != path
            @tool.stop
            @tool = nil
          end
          # Its processes end with this one: the hook is set at the first tool, so that it runs
          # after whatever work at_exit hooks set earlier do (minitest's runs its tests there).
          @stopped_at_exit ||= at_exit { ActiveStorage::Mediatool.stop } && true
          @tool ||= Tool.new(binary: path, settings: settings)
        end
      end

      # The blob's file as a path to read: the Disk service's own file (mediatool never writes to
      # its inputs), else a download to a temporary file, as Active Storage's analyzers have it.
      def with_local_path(blob)
        service = blob.service
        if service.respond_to?(:path_for) && File.file?(path = service.path_for(blob.key))
          yield path
        else
          blob.open(tmpdir: Dir.tmpdir) { |file| yield file.path }
        end
      end
    end

    @lock = Mutex.new
    ActiveSupport::ForkTracker.after_fork { ActiveStorage::Mediatool.after_fork }
  end
end

require "active_storage/mediatool/railtie" if defined?(Rails::Railtie)
