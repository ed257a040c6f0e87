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
    # mediatool gave no answer about a blob (it could not be started, stalled past its deadline,
    # ended, or answered nonsense): nothing is known of the file.
    class Error < StandardError
      # The same error with `path` (a blob's file on disk, a temporary copy) named `name` instead:
      # what reaches the app's log and exceptions names the blob, never where it lay.
      def naming(path, name)
        return self if path.to_s.empty? || !message.include?(path)

        self.class.new(message.gsub(path, name))
      end
    end
    # mediatool reads no file of this kind (no format it knows, an empty file, a TIFF layout it
    # does not decode): Active Storage's own analyzer or previewer may take it.
    class NotMedia < Error; end
    # mediatool knows the kind of file and refused this one: damaged, over a limit, too slow. No
    # tool without mediatool's limits is given it.
    class Refused < Error; end
    # The mediatool binary could not be started (removed, replaced by what does not run).
    class NotStarted < Error; end
    # mediatool was stopped at its deadline: the same file would most likely pass it again.
    class PastDeadline < Error; end

    autoload :Binary, "active_storage/mediatool/binary"
    autoload :Command, "active_storage/mediatool/command"
    autoload :Server, "active_storage/mediatool/server"
    autoload :ServerPool, "active_storage/mediatool/server_pool"
    autoload :Settings, "active_storage/mediatool/settings"
    autoload :Metadata, "active_storage/mediatool/metadata"
    autoload :Tool, "active_storage/mediatool/tool"
    autoload :Analyzer, "active_storage/mediatool/analyzer"
    autoload :Previewer, "active_storage/mediatool/previewer"
    autoload :WebVideoJob, "active_storage/mediatool/web_video_job"

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

      # The mediatool runs this process uses, or nil when there is no mediatool to run. A binary
      # moved, removed or replaced since the last blob is looked for again (`Binary`): the
      # processes kept of the one before are ended.
      def tool
        found = Binary.found
        @lock.synchronize do
          if @tool && (@tool.binary != found.path || @tool_identity != found.identity)
            @tool.stop
            @tool = nil
          end
          return nil unless found.path

          # Its processes end with this one: the hook is set at the first tool, so that it runs
          # after whatever work at_exit hooks set earlier do (minitest's runs its tests there).
          @stopped_at_exit ||= at_exit { ActiveStorage::Mediatool.stop } && true
          @tool_identity = found.identity
          @tool ||= Tool.new(binary: found.path, settings: settings)
        end
      end

      # What a failed system call says, without the path Ruby appends ("No such file or
      # directory", not "... - /tmp/..."): a message that reaches the app names no file.
      def reason(system_call_error)
        SystemCallError.new(nil, system_call_error.errno).message
      end

      # The blob's file as a path to read: the Disk service's own file (mediatool never writes to
      # its inputs), else a download to a temporary file, as Active Storage's analyzers have it.
      def with_local_path(blob)
        service = blob.service
        if service.respond_to?(:path_for) && File.file?(path = service.path_for(blob.key))
          naming_the_blob(path, blob) { yield path }
        else
          blob.open(tmpdir: Dir.tmpdir) { |file| naming_the_blob(file.path, blob) { yield file.path } }
        end
      end

      private
        # mediatool's own lines name the path they were given: its errors name the blob instead.
        def naming_the_blob(path, blob)
          yield
        rescue Error => error
          raise error.naming(path, blob.filename.to_s)
        end
    end

    @lock = Mutex.new
    ActiveSupport::ForkTracker.after_fork { ActiveStorage::Mediatool.after_fork }
  end
end

require "active_storage/mediatool/railtie" if defined?(Rails::Railtie)
