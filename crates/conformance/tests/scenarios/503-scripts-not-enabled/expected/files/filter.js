logEvent.getLoggerName() == "app.db";
